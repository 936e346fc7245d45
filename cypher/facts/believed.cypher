// Facts believed now that new claims could touch: every value of a ONE predicate for the
// subject, and every fact with the same statement identity.
CALL () {
  UNWIND $keys AS k
  MATCH (subject:Entity {ns: $ns, id: k.subject_id})<-[:SUBJECT]-(f)  // f: a Fact, by type
  USING INDEX SEEK subject:Entity(id)
  WHERE f.ns = $ns AND f.predicate = k.predicate AND f.retracted_at IS NULL
  RETURN f
  UNION
  UNWIND $identities AS identity
  MATCH (f:Fact {ns: $ns, identity: identity}) USING INDEX SEEK f:Fact(ns, identity)
  WHERE f.retracted_at IS NULL
  RETURN f
}
MATCH (f)-[:SUBJECT]->(s)
RETURN f.id AS id, s.id AS subject_id, f.predicate AS predicate, f.identity AS identity,
       f.valid_from AS valid_from, f.valid_to AS valid_to, f.confidence AS confidence,
       f.source AS source, f.status AS status
ORDER BY f.recorded_at, f.id
