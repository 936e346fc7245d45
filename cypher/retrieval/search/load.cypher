// The ranked hits of every kind by id, in one round trip (episodes and facts projected as
// their by_ids statements do).
CALL () {
  MATCH (e:Episode {ns: $ns}) USING INDEX SEEK e:Episode(id)
  WHERE e.id IN $episode_ids
  RETURN collect(e {.*, embedding: null, window: null, context: null}) AS episodes
}
CALL () {
  MATCH (f:Fact {ns: $ns}) USING INDEX SEEK f:Fact(id)
  WHERE f.id IN $fact_ids
  RETURN collect(f {.*, embedding: null}) AS facts
}
CALL () {
  MATCH (s:Summary {ns: $ns}) USING INDEX SEEK s:Summary(id)
  WHERE s.id IN $summary_ids
  RETURN collect(s {.*, embedding: null}) AS summaries
}
CALL () {
  MATCH (e:Entity {ns: $ns}) USING INDEX SEEK e:Entity(id)
  WHERE e.id IN $entity_ids
  RETURN collect({entity: e {.id, .name, .key, .type, .created_at, ns: e.ns},
                  aliases: [(a)-[:ALIAS_OF]->(e) WHERE a.ns = $ns | a.name]}) AS entities
}
RETURN episodes, facts, summaries, entities
