// Erase references to turns held on a device and what they alone supported (turns_plan, or
// a shared service's tombstones pulled by a device): facts (statement nodes and edges),
// summaries (or marked stale, with their text withdrawn), the references, then entities and
// values left with no fact and no alias, and conflicts left empty.
CALL () {
  UNWIND $facts AS id
  MATCH (f:Fact {ns: $ns, id: id}) USING INDEX SEEK f:Fact(id)
  CALL (f) {
    MATCH (f)-[:SUBJECT]->(subject)-[edge {fact_id: f.id}]->()
    DELETE edge
  }
  DETACH DELETE f
  RETURN count(*) AS facts
}
CALL () {
  UNWIND $summaries AS id
  MATCH (m:Summary {ns: $ns, id: id}) USING INDEX SEEK m:Summary(id)
  DETACH DELETE m
  RETURN count(*) AS summaries
}
CALL () {
  UNWIND $stale AS id
  MATCH (m:Summary {ns: $ns, id: id}) USING INDEX SEEK m:Summary(id)
  SET m.stale_since = coalesce(m.stale_since, $now), m.stale = true,
      m.stale_reason = 'content it covered was erased', m.text = $withdrawn,
      m.withdrawn_at = $now
  REMOVE m.embedding, m:EmbedPending
  RETURN count(*) AS summaries_stale
}
CALL () {
  UNWIND $turns AS id
  MATCH (t:DeviceTurn {ns: $ns, id: id}) USING INDEX SEEK t:DeviceTurn(id)
  DETACH DELETE t
  RETURN count(*) AS turn_references
}
CALL () {
  UNWIND $entities AS id
  MATCH (o:Entity {ns: $ns, id: id}) USING INDEX SEEK o:Entity(id)
  WHERE NOT EXISTS { (o)<-[:SUBJECT|OBJECT]-(:Fact) } AND NOT EXISTS { (o)<-[:ALIAS_OF]-() }
  DETACH DELETE o
  RETURN count(*) AS entities
}
CALL () {
  UNWIND $values AS id
  MATCH (o:Value {ns: $ns, id: id}) USING INDEX SEEK o:Value(id)
  WHERE NOT EXISTS { (o)<-[:OBJECT]-(:Fact) }
  DETACH DELETE o
  RETURN count(*) AS values
}
CALL () {
  MATCH (c:Conflict {ns: $ns})
  WHERE NOT EXISTS { (c)-[:CANDIDATE]->(:Fact) }
  DETACH DELETE c
  RETURN count(*) AS conflicts
}
RETURN facts, summaries, summaries_stale, turn_references, entities, values, conflicts
