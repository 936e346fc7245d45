// Fold one entity into another: its fact edges (whatever their type), the SUBJECT/OBJECT
// links of its statement nodes and its aliases move to `into`; its own name becomes an
// alias; an (:EntityMerge) node records who merged what, when and why.
MATCH (into:Entity {ns: $ns, id: $into_id})
MATCH (from:Entity {ns: $ns, id: $from_id})
CALL (into, from) {
  MATCH (from)-[r]->(o)
  WHERE r.fact_id IS NOT NULL
  WITH r, type(r) AS rel_type, properties(r) AS props,
       CASE WHEN o = from THEN into ELSE o END AS target
  CREATE (into)-[moved:$(rel_type)]->(target)
  SET moved = props
  DELETE r
  RETURN count(*) AS edges_out
}
CALL (into, from) {
  MATCH (s)-[r]->(from)
  WHERE r.fact_id IS NOT NULL
  WITH r, type(r) AS rel_type, properties(r) AS props, s
  CREATE (s)-[moved:$(rel_type)]->(into)
  SET moved = props
  DELETE r
  RETURN count(*) AS edges_in
}
CALL (into, from) {
  MATCH (f:Fact {ns: $ns})-[r:SUBJECT]->(from)
  CREATE (f)-[:SUBJECT]->(into)
  SET f.subject = into.name
  DELETE r
  RETURN collect(f.id) AS as_subject
}
CALL (into, from) {
  MATCH (f:Fact {ns: $ns})-[r:OBJECT]->(from)
  CREATE (f)-[:OBJECT]->(into)
  SET f.object = into.name
  DELETE r
  RETURN collect(f.id) AS as_object
}
CALL (into, from) {
  MATCH (a:Alias {ns: $ns})-[r:ALIAS_OF]->(from)
  MERGE (a)-[:ALIAS_OF]->(into)
  DELETE r
  RETURN count(a) AS aliases_moved
}
MERGE (own:Alias {ns: $ns, key: from.key})
  ON CREATE SET own.name = from.name, own.ns_key = from.ns_key, own.created_at = $now
MERGE (own)-[:ALIAS_OF]->(into)
SET into.type = coalesce(into.type, from.type)
CREATE (m:EntityMerge {id: $merge_id, ns: $ns, from_id: from.id, from_name: from.name,
                       from_key: from.key, into_id: into.id, at: $now, actor: $actor,
                       reason: $reason})
CREATE (m)-[:INTO]->(into)
WITH into, from, edges_out + edges_in AS edges_moved, size(reduce(ids = [], id IN as_subject + as_object |
       CASE WHEN id IN ids THEN ids ELSE ids + id END)) AS facts_moved,
     aliases_moved
DETACH DELETE from
RETURN edges_moved, facts_moved, aliases_moved
