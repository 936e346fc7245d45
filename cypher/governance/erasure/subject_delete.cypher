// Delete an entity with every fact version about it, its aliases and merge records, then
// the entities and values left with no fact and no alias, and conflicts left empty.
MATCH (e:Entity {ns: $ns, id: $id})
CALL (e) {
  MATCH (f:Fact {ns: $ns}) WHERE f.id IN $facts
  DETACH DELETE f
  RETURN count(*) AS facts
}
CALL (e) {
  OPTIONAL MATCH (a:Alias {ns: $ns})-[:ALIAS_OF]->(e)
  DETACH DELETE a
  RETURN count(a) AS aliases
}
CALL (e) {
  OPTIONAL MATCH (m:EntityMerge {ns: $ns})-[:INTO]->(e)
  DETACH DELETE m
  RETURN count(m) AS merges
}
DETACH DELETE e
WITH facts, aliases, merges
CALL () {
  UNWIND $other_entities AS other_id
  MATCH (o:Entity {ns: $ns, id: other_id})
  WHERE NOT EXISTS { (o)<-[:SUBJECT|OBJECT]-(:Fact) }
  DETACH DELETE o
  RETURN count(*) AS orphan_entities
}
CALL () {
  UNWIND $others AS other_id
  MATCH (o:Value {ns: $ns, id: other_id})
  WHERE NOT EXISTS { (o)<-[:OBJECT]-(:Fact) }
  DETACH DELETE o
  RETURN count(*) AS orphan_values
}
CALL () {
  MATCH (c:Conflict {ns: $ns})
  WHERE NOT EXISTS { (c)-[:CANDIDATE]->(:Fact) }
  DETACH DELETE c
  RETURN count(*) AS conflicts
}
RETURN 1 AS entities, facts, aliases, merges, orphan_entities, orphan_values, conflicts
