// Every fact touching the surviving entity, with what its identity is computed from.
MATCH (into:Entity {ns: $ns, id: $into_id})<-[:SUBJECT|OBJECT]-(f:Fact {ns: $ns})
WITH DISTINCT f
MATCH (f)-[:SUBJECT]->(s), (f)-[:OBJECT]->(o)
RETURN f.id AS id, f.identity AS identity, f.predicate AS predicate, s.id AS subject_id,
       o.id AS object_id, f.status AS status, f.recorded_at AS recorded_at
