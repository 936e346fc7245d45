// Every retriever over every kind in one round trip (one statement costs less than eight
// concurrent ones): per kind its BM25 list (the Lucene query $lucene[kind]; absent: skipped)
// and its nearest neighbours by embedding ($vector; null, or the kind not in $kinds:
// skipped), ids best first, at most $limit each.
// Filters: episodes by session and time range; facts believed now and valid at $valid_at
// unless $history; summaries by session (stale ones rank, and say so); an entity alias hit
// counts for the entity it names. Lucene queries are scoped to the namespace inside Lucene.
// The vector indexes span namespaces and cannot filter, so each vector list also counts the
// $k nearest that were close enough but filtered out: when that left the list short, the
// caller asks again with a larger $k (a cost paid only where other namespaces crowd).
CALL () {
  WITH $lucene.episode AS lucene WHERE lucene IS NOT NULL
  CALL db.index.fulltext.queryNodes('episode_text_with_context', lucene, {limit: $limit * 4})
  YIELD node, score
  WHERE node.ns = $ns
    AND ($session_id IS NULL OR node.session_id = $session_id)
    AND ($start IS NULL OR node.occurred_at >= $start)
    AND ($end IS NULL OR node.occurred_at < $end)
  WITH node.id AS id ORDER BY score DESC, id LIMIT $limit
  RETURN collect(id) AS episode_bm25
}
CALL () {
  WITH $lucene.fact AS lucene WHERE lucene IS NOT NULL
  CALL db.index.fulltext.queryNodes('fact_text', lucene, {limit: $limit * 4})
  YIELD node, score
  WHERE node.ns = $ns
    AND ($history OR (node.retracted_at IS NULL
         AND (node.valid_from IS NULL OR node.valid_from <= $valid_at)
         AND (node.valid_to IS NULL OR node.valid_to > $valid_at)))
  WITH node.id AS id ORDER BY score DESC, id LIMIT $limit
  RETURN collect(id) AS fact_bm25
}
CALL () {
  WITH $lucene.summary AS lucene WHERE lucene IS NOT NULL
  CALL db.index.fulltext.queryNodes('summary_text', lucene, {limit: $limit * 4})
  YIELD node, score
  WHERE node.ns = $ns AND ($session_id IS NULL OR node.session_id = $session_id)
  WITH node.id AS id ORDER BY score DESC, id LIMIT $limit
  RETURN collect(id) AS summary_bm25
}
CALL () {
  WITH $lucene.entity AS lucene WHERE lucene IS NOT NULL
  CALL db.index.fulltext.queryNodes('entity_names', lucene, {limit: $limit * 4})
  YIELD node, score
  WHERE node.ns = $ns
  WITH coalesce([(node)-[:ALIAS_OF]->(named) WHERE named.ns = $ns | named][0], node).id AS id,
       max(score) AS score
  WITH id ORDER BY score DESC, id LIMIT $limit
  RETURN collect(id) AS entity_bm25
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
  RETURN {ids: collect(CASE WHEN kept THEN node.id END)[..$limit],
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
  RETURN {ids: collect(CASE WHEN kept THEN node.id END)[..$limit],
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
  RETURN {ids: collect(CASE WHEN kept THEN node.id END)[..$limit],
          filtered: count(CASE WHEN NOT kept THEN 1 END)} AS summary_vector
}
CALL () {
  WITH $vector AS vector WHERE vector IS NOT NULL AND 'entity' IN $kinds
  CALL db.index.vector.queryNodes('entity_embedding', $k, vector)
  YIELD node, score
  WHERE score >= $min_score
  WITH node, score, coalesce(node.ns = $ns, false) AS kept
  ORDER BY score DESC, node.id
  RETURN {ids: collect(CASE WHEN kept THEN node.id END)[..$limit],
          filtered: count(CASE WHEN NOT kept THEN 1 END)} AS entity_vector
}
RETURN episode_bm25, fact_bm25, summary_bm25, entity_bm25,
       episode_vector, fact_vector, summary_vector, entity_vector
