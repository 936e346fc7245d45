// Every fact believed now with this entity as subject, with the open conflicts holding it.
MATCH (s:Entity {ns: $ns, id: $subject_id})<-[:SUBJECT]-(f:Fact {ns: $ns})
WHERE f.retracted_at IS NULL
RETURN f.id AS id, s.id AS subject_id, f.predicate AS predicate, f.identity AS identity,
       f.valid_from AS valid_from, f.valid_to AS valid_to, f.confidence AS confidence,
       f.source AS source, f.status AS status
ORDER BY f.recorded_at, f.id
