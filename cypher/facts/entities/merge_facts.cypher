// Every fact touching the surviving entity, with what its identity is computed from.
MATCH (into:Entity {ns: $ns, id: $into_id})<-[:SUBJECT|OBJECT]-(f:Fact {ns: $ns})
WITH DISTINCT f
MATCH (f)-[:SUBJECT]->(s), (f)-[:OBJECT]->(o)
RETURN f.id AS id, f.identity AS stored_identity, f.predicate AS predicate,
       s.id AS subject_id, o.id AS object_id, f.retracted_at IS NULL AS believed,
       f.recorded_at AS recorded_at, f.valid_from AS valid_from, f.valid_to AS valid_to,
       f.confidence AS confidence, f.source AS source, f.status AS status
