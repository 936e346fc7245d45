// A whole search but loading the ranked hits, in one round trip: every retriever over every
// kind, then what the graph brings from those lists. (One statement costs less than eight
// concurrent ones, and expansion needs the lists: a second statement cost a round trip.)
//
// Retrievers: per kind its BM25 list (the Lucene query $lucene[kind]; absent: skipped)
// and its nearest neighbours by embedding ($vector; null, or the kind not in $kinds:
// skipped), rows {id, score} best first. Episodes come as a wider pool ($pool) with their
// session, the time they were said and the time they tell of (`told`: [start, end], nulls
// when their words name none), for the conversation priors; other kinds at most $limit.
// Filters: episodes by session and time range; facts believed now and valid at $valid_at
// unless $history; summaries by session (stale ones rank, and say so); an entity alias hit
// counts for the entity it names, and an entity is found while memory believes a fact about
// it (one whose every fact was retracted or superseded is history). Archived episodes have
// no words left in the graph (their content is a placeholder, which matched every query for
// "archived"): vector search finds them by the embedding they keep. Lucene queries require the namespace's exact token
// (ns_key), so no other namespace's text takes a candidate's place; `node.ns = $ns` checks it.
// graphmem's own notes of changes (`note`: a correction's, a retraction's) are evidence for
// history, not turns of the conversation: only $history brings them.
// The vector indexes span namespaces and cannot filter: a namespace with fewer than
// $exact_below nodes of a kind scans its own vectors exactly; a larger one asks the index,
// and its list also counts the $k[kind] nearest that were close enough but filtered out:
// when that left the list short, the caller asks again with a larger $k for that kind (paid
// only where other namespaces crowd).
CALL () {
  WITH $lucene.episode AS lucene WHERE lucene IS NOT NULL
  CALL db.index.fulltext.queryNodes('episode_search', lucene, {limit: $lucene_limit})
  YIELD node, score
  WHERE node.ns = $ns AND node.archived_at IS NULL  // its text is the archive's placeholder
    AND ($history OR node.note IS NULL)
    AND ($session_id IS NULL OR node.session_id = $session_id)
    AND ($start IS NULL OR node.occurred_at >= $start)
    AND ($end IS NULL OR node.occurred_at < $end)
  WITH node, score ORDER BY score DESC, node.id LIMIT $pool
  RETURN collect({id: node.id, score: score, session_id: node.session_id,
                  at: node.occurred_at,
                  told: [node.event_start, node.event_end]}) AS episode_bm25
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
  WITH coalesce([(node)-[:ALIAS_OF]->(named) WHERE named.ns = $ns | named][0], node) AS entity,
       max(score) AS score
  WHERE $history OR EXISTS { (entity)<-[:SUBJECT|OBJECT]-(f) WHERE f.retracted_at IS NULL }
  WITH entity.id AS id, score ORDER BY score DESC, id LIMIT $limit
  RETURN collect({id: id, score: score}) AS entity_bm25
}
// Each kind's vector list. A namespace holding fewer than $exact_below nodes of the kind
// (counted up to that bound, and only when the kind's vectors are asked for) scans its own
// vectors exactly instead of taking the shared index's nearest: other tenants' near-duplicates
// crowd those out (with 10,000 turns in 88 namespaces, the index's top 20 for a 500-turn
// namespace agreed 0.88 with the exact ones, and scanning its 500 vectors took less time
// than the index with its retry).
// The scan's guard is its seek's own value: as a WHERE, the planner put it after the seek,
// and every search read every node of a large namespace to throw them away.
CALL () {
  WITH $vector AS vector WHERE vector IS NOT NULL AND 'episode' IN $kinds
  CALL () {
    MATCH (n:Episode {ns: $ns}) WITH n LIMIT $exact_below RETURN count(n) < $exact_below AS exact
  }
  CALL (vector, exact) {
    WITH vector, CASE WHEN exact THEN $ns END AS scanned  // null finds nothing
    MATCH (node:Episode {ns: scanned}) WHERE node.embedding IS NOT NULL
    RETURN node, vector.similarity.cosine(node.embedding, vector) AS score
    UNION ALL
    WITH vector WHERE NOT exact
    CALL db.index.vector.queryNodes('episode_embedding', $k.episode, vector) YIELD node, score
    RETURN node, score
  }
  WITH node, score, exact WHERE score >= $min_score
  WITH node, score, exact, coalesce(node.ns = $ns AND ($history OR node.note IS NULL)
    AND ($session_id IS NULL OR node.session_id = $session_id)
    AND ($start IS NULL OR node.occurred_at >= $start)
    AND ($end IS NULL OR node.occurred_at < $end), false) AS kept
  ORDER BY score DESC, node.id
  RETURN {hits: collect(CASE WHEN kept THEN {id: node.id, score: score,
                        session_id: node.session_id, at: node.occurred_at,
                        told: [node.event_start, node.event_end]} END)[..$limit],
          // a whole scan has no further to look:
          filtered: count(CASE WHEN NOT kept AND NOT exact THEN 1 END)} AS episode_vector
}
CALL () {
  WITH $vector AS vector WHERE vector IS NOT NULL AND 'fact' IN $kinds
  CALL () {
    MATCH (n:Fact {ns: $ns}) WITH n LIMIT $exact_below RETURN count(n) < $exact_below AS exact
  }
  CALL (vector, exact) {
    WITH vector, CASE WHEN exact THEN $ns END AS scanned  // null finds nothing
    MATCH (node:Fact {ns: scanned}) WHERE node.embedding IS NOT NULL
    RETURN node, vector.similarity.cosine(node.embedding, vector) AS score
    UNION ALL
    WITH vector WHERE NOT exact
    CALL db.index.vector.queryNodes('fact_embedding', $k.fact, vector) YIELD node, score
    RETURN node, score
  }
  WITH node, score, exact WHERE score >= $min_score
  WITH node, score, exact, coalesce(node.ns = $ns
    AND ($history OR (node.retracted_at IS NULL
         AND (node.valid_from IS NULL OR node.valid_from <= $valid_at)
         AND (node.valid_to IS NULL OR node.valid_to > $valid_at))), false) AS kept
  ORDER BY score DESC, node.id
  RETURN {hits: collect(CASE WHEN kept THEN {id: node.id, score: score} END)[..$limit],
          // a whole scan has no further to look:
          filtered: count(CASE WHEN NOT kept AND NOT exact THEN 1 END)} AS fact_vector
}
CALL () {
  WITH $vector AS vector WHERE vector IS NOT NULL AND 'summary' IN $kinds
  CALL () {
    MATCH (n:Summary {ns: $ns}) WITH n LIMIT $exact_below RETURN count(n) < $exact_below AS exact
  }
  CALL (vector, exact) {
    WITH vector, CASE WHEN exact THEN $ns END AS scanned  // null finds nothing
    MATCH (node:Summary {ns: scanned}) WHERE node.embedding IS NOT NULL
    RETURN node, vector.similarity.cosine(node.embedding, vector) AS score
    UNION ALL
    WITH vector WHERE NOT exact
    CALL db.index.vector.queryNodes('summary_embedding', $k.summary, vector) YIELD node, score
    RETURN node, score
  }
  WITH node, score, exact WHERE score >= $min_score
  WITH node, score, exact, coalesce(node.ns = $ns
    AND ($session_id IS NULL OR node.session_id = $session_id), false) AS kept
  ORDER BY score DESC, node.id
  RETURN {hits: collect(CASE WHEN kept THEN {id: node.id, score: score} END)[..$limit],
          // a whole scan has no further to look:
          filtered: count(CASE WHEN NOT kept AND NOT exact THEN 1 END)} AS summary_vector
}
CALL () {
  WITH $vector AS vector WHERE vector IS NOT NULL AND 'entity' IN $kinds
  CALL () {
    MATCH (n:Entity {ns: $ns}) WITH n LIMIT $exact_below RETURN count(n) < $exact_below AS exact
  }
  CALL (vector, exact) {
    WITH vector, CASE WHEN exact THEN $ns END AS scanned  // null finds nothing
    MATCH (node:Entity {ns: scanned}) WHERE node.embedding IS NOT NULL
    RETURN node, vector.similarity.cosine(node.embedding, vector) AS score
    UNION ALL
    WITH vector WHERE NOT exact
    CALL db.index.vector.queryNodes('entity_embedding', $k.entity, vector) YIELD node, score
    RETURN node, score
  }
  WITH node, score, exact WHERE score >= $min_score
  WITH node, score, exact, coalesce(node.ns = $ns AND ($history
    OR EXISTS { (node)<-[:SUBJECT|OBJECT]-(f) WHERE f.retracted_at IS NULL }), false) AS kept
  ORDER BY score DESC, node.id
  RETURN {hits: collect(CASE WHEN kept THEN {id: node.id, score: score} END)[..$limit],
          // a whole scan has no further to look:
          filtered: count(CASE WHEN NOT kept AND NOT exact THEN 1 END)} AS entity_vector
}
// Expansion ($expand says which links to follow), each row {via: the hit, id: what it
// brings}. The evidence episodes of fact hits:
CALL (fact_bm25, fact_vector) {
  WITH fact_bm25, fact_vector WHERE $expand.facts
  UNWIND [h IN fact_bm25 | h.id] + [h IN fact_vector.hits | h.id] AS fact_id
  WITH DISTINCT fact_id ORDER BY fact_id
  MATCH (f:Fact {ns: $ns, id: fact_id})-[:EVIDENCED_BY]->(e) USING INDEX SEEK f:Fact(id)
  WHERE e.ns = $ns AND ($history OR e.note IS NULL)  // e: an Episode, by type
  RETURN collect({via: fact_id, id: e.id, session_id: e.session_id, at: e.occurred_at,
                  told: [e.event_start, e.event_end]})
         AS from_facts
}
// The candidate turns that summary hits cover: a summary raises what it points into instead
// of standing in for it.
CALL (summary_bm25, summary_vector, episode_bm25, episode_vector) {
  WITH summary_bm25, summary_vector,
       [h IN episode_bm25 | h.id] + [h IN episode_vector.hits | h.id] AS candidate_ids
  WHERE $expand.summaries
  UNWIND [h IN summary_bm25 | h.id] + [h IN summary_vector.hits | h.id] AS summary_id
  WITH DISTINCT summary_id, candidate_ids ORDER BY summary_id
  MATCH (s:Summary {ns: $ns, id: summary_id})-[:SUMMARIZES]->(e) USING INDEX SEEK s:Summary(id)
  WHERE e.ns = $ns AND e.id IN candidate_ids  // e: an Episode (or a Summary: not a candidate)
  RETURN collect({via: summary_id, id: e.id}) AS from_summaries
}
// The newest facts of the best-ranked entity hits ($expand.entities of them: a long tail of
// weak entity matches would cost a read each and add only noise), as subject or object,
// that pass the same filters as fact hits: at most $per_entity each, so a hub cannot flood
// the fusion.
CALL (entity_bm25, entity_vector) {
  WITH entity_bm25, entity_vector WHERE $expand.entities > 0
  UNWIND [i IN range(0, size(entity_bm25) - 1) | {id: entity_bm25[i].id, rank: i + 1}] +
         [i IN range(0, size(entity_vector.hits) - 1) |
          {id: entity_vector.hits[i].id, rank: i + 1}] AS hit
  WITH hit.id AS entity_id, min(hit.rank) AS rank
  ORDER BY rank, entity_id LIMIT $expand.entities
  CALL (entity_id) {
    MATCH (e:Entity {ns: $ns, id: entity_id})<-[:SUBJECT|OBJECT]-(f) USING INDEX SEEK e:Entity(id)
    WHERE f.ns = $ns  // f: a Fact, by type
      AND ($history OR (f.retracted_at IS NULL
           AND (f.valid_from IS NULL OR f.valid_from <= $valid_at)
           AND (f.valid_to IS NULL OR f.valid_to > $valid_at)))
    RETURN f.id AS id
    ORDER BY f.recorded_at DESC, f.id
    LIMIT $per_entity
  }
  RETURN collect({via: entity_id, id: id}) AS from_entities
}
// The turns linked to the entities the query names ($names: its word n-grams, matched to an
// entity's key or alias; at most $expand.named of them): the evidence of their current
// facts, passing the same filters as episode hits, the most similar to $vector first (the
// newest without one), at most $named_per_entity each.
CALL () {
  WITH $expand.named AS most WHERE most > 0
  CALL () {
    MATCH (named:Entity {ns: $ns}) USING INDEX SEEK named:Entity(ns, key)
    WHERE named.key IN $names
    RETURN named
    UNION
    MATCH (alias:Alias {ns: $ns})-[:ALIAS_OF]->(named) USING INDEX SEEK alias:Alias(ns, key)
    WHERE alias.key IN $names AND named.ns = $ns  // named: an Entity, by type
    RETURN named
  }
  WITH DISTINCT named ORDER BY named.id LIMIT $expand.named
  CALL (named) {
    MATCH (named)<-[:SUBJECT|OBJECT]-(f)-[:EVIDENCED_BY]->(e)  // f: a Fact, e: an Episode
    WHERE f.ns = $ns AND e.ns = $ns
      AND ($history OR (f.retracted_at IS NULL
           AND (f.valid_from IS NULL OR f.valid_from <= $valid_at)
           AND (f.valid_to IS NULL OR f.valid_to > $valid_at)))
      AND ($history OR e.note IS NULL)
      AND ($session_id IS NULL OR e.session_id = $session_id)
      AND ($start IS NULL OR e.occurred_at >= $start)
      AND ($end IS NULL OR e.occurred_at < $end)
    WITH DISTINCT e
    WITH e, CASE WHEN $vector IS NULL OR e.embedding IS NULL THEN null
                 ELSE vector.similarity.cosine(e.embedding, $vector) END AS similarity
    ORDER BY coalesce(similarity, -2.0) DESC, e.occurred_at DESC, e.id
    LIMIT $named_per_entity
    RETURN collect({id: e.id, session_id: e.session_id, at: e.occurred_at,
                    told: [e.event_start, e.event_end], similarity: similarity}) AS turns
  }
  UNWIND range(0, size(turns) - 1) AS i
  WITH named, turns[i] AS turn, i + 1 AS rank
  RETURN collect({via: named.id, rank: rank, id: turn.id, session_id: turn.session_id,
                  at: turn.at, told: turn.told, similarity: turn.similarity}) AS from_named
}
// On request, the turns just before and after episode hits in their session.
CALL (episode_bm25, episode_vector) {
  WITH episode_bm25, episode_vector WHERE $expand.neighbours
  UNWIND [h IN episode_bm25 | h.id] + [h IN episode_vector.hits | h.id] AS episode_id
  WITH DISTINCT episode_id ORDER BY episode_id
  MATCH (e:Episode {ns: $ns, id: episode_id}) USING INDEX SEEK e:Episode(id)
  OPTIONAL MATCH (before)-[:NEXT]->(e)
  OPTIONAL MATCH (e)-[:NEXT]->(after)
  UNWIND [x IN [before, after] WHERE x IS NOT NULL] AS neighbour
  RETURN collect({via: episode_id, id: neighbour.id, session_id: neighbour.session_id,
                  at: neighbour.occurred_at,
                  told: [neighbour.event_start, neighbour.event_end]}) AS from_episodes
}
RETURN episode_bm25, fact_bm25, summary_bm25, entity_bm25,
       episode_vector, fact_vector, summary_vector, entity_vector,
       from_facts, from_summaries, from_entities, from_episodes, from_named
