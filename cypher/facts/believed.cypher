// Facts believed now that new claims could touch: every value of a ONE predicate for the
// subject, and every fact with the same statement identity; and which of those statements
// a user asked memory to forget (machines may not assert them again).
CYPHER replan=skip  // the write path keeps its plan: see graphmem/db/statements.py
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
WITH f, s ORDER BY f.recorded_at, f.id
WITH collect({id: f.id, subject_id: s.id, predicate: f.predicate, identity: f.identity,
              valid_from: f.valid_from, valid_to: f.valid_to, confidence: f.confidence,
              source: f.source, status: f.status}) AS rows
RETURN rows, COLLECT {
  UNWIND $identities AS identity
  MATCH (g:Fact {ns: $ns, identity: identity}) USING INDEX SEEK g:Fact(ns, identity)
  WHERE g.forgotten_at IS NOT NULL
  RETURN {identity: identity, fact_id: g.id}
} AS forgotten
