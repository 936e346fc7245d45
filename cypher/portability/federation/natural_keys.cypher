// Sync: the entities ($entities: {id, key}) and literal values ($values: {id, datatype,
// key}) this namespace already holds under their names, whatever their ids: two devices that
// each learned of "Dana" made two ids for one person, and a fact from either joins the one
// entity here. Aliases count as names, as when an assertion resolves one.
CALL () {
  UNWIND $entities AS e
  OPTIONAL MATCH (own:Entity {ns: $ns, key: e.key}) USING INDEX SEEK own:Entity(ns, key)
  OPTIONAL MATCH (:Alias {ns: $ns, key: e.key})-[:ALIAS_OF]->(aliased:Entity {ns: $ns})
  WITH e, coalesce(own, aliased) AS found WHERE found IS NOT NULL AND found.id <> e.id
  RETURN collect({label: 'Entity', key: e.id, id: found.id}) AS entities
}
CALL () {
  UNWIND $values AS v
  MATCH (found:Value {ns: $ns, datatype: v.datatype, key: v.key})
  WHERE found.id <> v.id
  RETURN collect({label: 'Value', key: v.id, id: found.id}) AS values
}
RETURN entities + values AS rows
