// What erasing references to turns held on a device ($turns: DeviceTurn ids, federated
// memory) takes: the facts they alone supported (no other evidence left: no episode here,
// no other device's turn), the summaries they alone cover (deleted) or partly (stale), and
// the entities and values those facts join (deleted if nothing else holds them). On a
// device, $facts and $summaries are what the shared side erased (its tombstones): taken too.
CALL () {
  CALL () {
    UNWIND $turns AS id
    MATCH (t:DeviceTurn {ns: $ns, id: id}) USING INDEX SEEK t:DeviceTurn(id)
    MATCH (f:Fact)-[:EVIDENCED_BY_TURN]->(t)
    WITH DISTINCT f WHERE f.ns = $ns
      AND NOT EXISTS { (f)-[:EVIDENCED_BY]->(:Episode) }
      AND NOT EXISTS { (f)-[:EVIDENCED_BY_TURN]->(o:DeviceTurn) WHERE NOT o.id IN $turns }
    RETURN f
    UNION
    UNWIND $facts AS id
    MATCH (f:Fact {ns: $ns, id: id}) USING INDEX SEEK f:Fact(id)
    RETURN f
  }
  OPTIONAL MATCH (f)-[:SUBJECT|OBJECT]->(end)
  RETURN collect(DISTINCT f.id) AS facts,
         collect(DISTINCT CASE WHEN end:Entity THEN end.id END) AS entities,
         collect(DISTINCT CASE WHEN end:Value THEN end.id END) AS values
}
CALL () {
  UNWIND $turns AS id
  MATCH (t:DeviceTurn {ns: $ns, id: id}) USING INDEX SEEK t:DeviceTurn(id)
  MATCH (m:Summary)-[:SUMMARIZES_TURN]->(t)
  WITH DISTINCT m WHERE m.ns = $ns
  WITH m, EXISTS { (m)-[:SUMMARIZES]->() } OR
          EXISTS { (m)-[:SUMMARIZES_TURN]->(o:DeviceTurn) WHERE NOT o.id IN $turns } AS rest
  WITH collect(CASE WHEN NOT rest THEN m.id END) AS alone,
       collect(CASE WHEN rest THEN m.id END) AS stale
  RETURN COLLECT { UNWIND alone + $summaries AS id RETURN DISTINCT id } AS summaries, stale
}
RETURN facts, entities, values, summaries, stale
