// Entities sharing a fact with any of these (a merge locks them: their facts change too).
MATCH (e:Entity {ns: $ns}) USING INDEX SEEK e:Entity(id)
WHERE e.id IN $ids
UNWIND [(e)<-[:SUBJECT|OBJECT]-(f)-[:SUBJECT|OBJECT]->(x:Entity) WHERE f.ns = $ns | x.id] AS id
RETURN DISTINCT id
