// Graph expansion, in one round trip; each row is {via: the hit, id: what it brings}.
// The evidence episodes of fact hits ($fact_ids).
CALL () {
  UNWIND $fact_ids AS fact_id
  MATCH (f:Fact {ns: $ns, id: fact_id})-[:EVIDENCED_BY]->(e) USING INDEX SEEK f:Fact(id)
  WHERE e.ns = $ns  // e: an Episode, by type
  RETURN collect({via: fact_id, id: e.id, session_id: e.session_id, at: e.occurred_at})
         AS from_facts
}
// The candidate turns ($candidate_ids) that summary hits ($summary_ids) cover: a summary
// raises what it points into instead of standing in for it.
CALL () {
  UNWIND $summary_ids AS summary_id
  MATCH (s:Summary {ns: $ns, id: summary_id})-[:SUMMARIZES]->(e) USING INDEX SEEK s:Summary(id)
  WHERE e.ns = $ns AND e.id IN $candidate_ids  // e: an Episode (or a Summary: not a candidate)
  RETURN collect({via: summary_id, id: e.id}) AS from_summaries
}
// The newest facts of entity hits ($entity_ids), as subject or object, that pass the same
// filters as fact hits: at most $per_entity each, so a hub cannot flood the fusion.
CALL () {
  UNWIND $entity_ids AS entity_id
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
// On request, the turns just before and after episode hits in their session ($episode_ids).
CALL () {
  UNWIND $episode_ids AS episode_id
  MATCH (e:Episode {ns: $ns, id: episode_id}) USING INDEX SEEK e:Episode(id)
  OPTIONAL MATCH (before)-[:NEXT]->(e)
  OPTIONAL MATCH (e)-[:NEXT]->(after)
  UNWIND [x IN [before, after] WHERE x IS NOT NULL] AS neighbour
  RETURN collect({via: episode_id, id: neighbour.id, session_id: neighbour.session_id,
                  at: neighbour.occurred_at}) AS from_episodes
}
RETURN from_facts, from_summaries, from_entities, from_episodes
