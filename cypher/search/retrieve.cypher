// Every retriever over every kind in one round trip (one statement costs less than eight
// concurrent ones): per kind its BM25 list (the Lucene query $lucene[kind]; absent: skipped)
// and its nearest neighbours by embedding ($vector; null, or the kind not in $kinds:
// skipped), rows {id, score} best first. Episodes come as a wider pool ($pool) with their
// session and time, for the conversation priors; other kinds at most $limit.
// Filters: episodes by session and time range; facts believed now and valid at $valid_at
// unless $history; summaries by session (stale ones rank, and say so); an entity alias hit
// counts for the entity it names. Lucene queries require the namespace's exact token
// (ns_key), so no other namespace's text takes a candidate's place; `node.ns = $ns` checks it.
// The vector indexes span namespaces and cannot filter, so each vector list also counts the
// $k nearest that were close enough but filtered out: when that left the list short, the
// caller asks again with a larger $k (a cost paid only where other namespaces crowd).
CALL () {
  WITH $lucene.episode AS lucene WHERE lucene IS NOT NULL
  CALL db.index.fulltext.queryNodes('episode_search', lucene, {limit: $lucene_limit})
  YIELD node, score
  WHERE node.ns = $ns
    AND ($session_id IS NULL OR node.session_id = $session_id)
    AND ($start IS NULL OR node.occurred_at >= $start)
    AND ($end IS NULL OR node.occurred_at < $end)
  WITH node, score ORDER BY score DESC, node.id LIMIT $pool
  RETURN collect({id: node.id, score: score, session_id: node.session_id,
                  at: node.occurred_at}) AS episode_bm25
}
CALL () {
  WITH $lucene.fact AS lucene WHERE lucene IS NOT NULL
  CALL db.index.fulltext.queryNodes('fact_search', lucene, {limit: $limit * 4})
  YIELD node, score
  WHERE node.ns = $ns
    AND ($history OR (node.retracted_at IS NULL
         AND (node.valid_from IS NULL OR node.valid_from <= $valid_at)
         AND (node.valid_to IS NULL OR node.valid_to > $valid_at)))
  WITH node.id AS id, score ORDER BY score DESC, id LIMIT $limit
  RETURN collect({id: id, score: score}) AS fact_bm25
}
CALL () {
  WITH $lucene.summary AS lucene WHERE lucene IS NOT NULL
  CALL db.index.fulltext.queryNodes('summary_search', lucene, {limit: $limit * 4})
  YIELD node, score
  WHERE node.ns = $ns AND ($session_id IS NULL OR node.session_id = $session_id)
  WITH node.id AS id, score ORDER BY score DESC, id LIMIT $limit
  RETURN collect({id: id, score: score}) AS summary_bm25
}
CALL () {
  WITH $lucene.entity AS lucene WHERE lucene IS NOT NULL
  CALL db.index.fulltext.queryNodes('entity_search', lucene, {limit: $limit * 4})
  YIELD node, score
  WHERE node.ns = $ns
  WITH coalesce([(node)-[:ALIAS_OF]->(named) WHERE named.ns = $ns | named][0], node).id AS id,
       max(score) AS score
  WITH id, score ORDER BY score DESC, id LIMIT $limit
  RETURN collect({id: id, score: score}) AS entity_bm25
}
CALL () {
  WITH $vector AS vector WHERE vector IS NOT NULL AND 'episode' IN $kinds
  CALL db.index.vector.queryNodes('episode_embedding', $k, vector)
  YIELD node, score
  WHERE score >= $min_score
  WITH node, score, coalesce(node.ns = $ns
    AND ($session_id IS NULL OR node.session_id = $session_id)
    AND ($start IS NULL OR node.occurred_at >= $start)
    AND ($end IS NULL OR node.occurred_at < $end), false) AS kept
  ORDER BY score DESC, node.id
  RETURN {hits: collect(CASE WHEN kept THEN {id: node.id, score: score,
                        session_id: node.session_id, at: node.occurred_at} END)[..$limit],
          filtered: count(CASE WHEN NOT kept THEN 1 END)} AS episode_vector
}
CALL () {
  WITH $vector AS vector WHERE vector IS NOT NULL AND 'fact' IN $kinds
  CALL db.index.vector.queryNodes('fact_embedding', $k, vector)
  YIELD node, score
  WHERE score >= $min_score
  WITH node, score, coalesce(node.ns = $ns
    AND ($history OR (node.retracted_at IS NULL
         AND (node.valid_from IS NULL OR node.valid_from <= $valid_at)
         AND (node.valid_to IS NULL OR node.valid_to > $valid_at))), false) AS kept
  ORDER BY score DESC, node.id
  RETURN {hits: collect(CASE WHEN kept THEN {id: node.id, score: score} END)[..$limit],
          filtered: count(CASE WHEN NOT kept THEN 1 END)} AS fact_vector
}
CALL () {
  WITH $vector AS vector WHERE vector IS NOT NULL AND 'summary' IN $kinds
  CALL db.index.vector.queryNodes('summary_embedding', $k, vector)
  YIELD node, score
  WHERE score >= $min_score
  WITH node, score, coalesce(node.ns = $ns
    AND ($session_id IS NULL OR node.session_id = $session_id), false) AS kept
  ORDER BY score DESC, node.id
  RETURN {hits: collect(CASE WHEN kept THEN {id: node.id, score: score} END)[..$limit],
          filtered: count(CASE WHEN NOT kept THEN 1 END)} AS summary_vector
}
CALL () {
  WITH $vector AS vector WHERE vector IS NOT NULL AND 'entity' IN $kinds
  CALL db.index.vector.queryNodes('entity_embedding', $k, vector)
  YIELD node, score
  WHERE score >= $min_score
  WITH node, score, coalesce(node.ns = $ns, false) AS kept
  ORDER BY score DESC, node.id
  RETURN {hits: collect(CASE WHEN kept THEN {id: node.id, score: score} END)[..$limit],
          filtered: count(CASE WHEN NOT kept THEN 1 END)} AS entity_vector
}
RETURN episode_bm25, fact_bm25, summary_bm25, entity_bm25,
       episode_vector, fact_vector, summary_vector, entity_vector
