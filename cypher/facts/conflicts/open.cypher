// Disputes the policy could not settle: one (:Conflict) per dispute, linked to its candidate
// facts, which become `disputed` (still believed, flagged).
UNWIND $conflicts AS c
CREATE (conflict:Conflict {id: c.id, ns: $ns, status: 'open', created_at: $now})
WITH conflict, c
CALL (conflict, c) {
  UNWIND c.fact_ids AS fact_id
  MATCH (f:Fact {ns: $ns, id: fact_id})-[:SUBJECT]->(s) USING INDEX SEEK f:Fact(id)
  CREATE (conflict)-[:CANDIDATE]->(f)
  SET f.status = 'disputed', conflict.subject = f.subject, conflict.predicate = f.predicate
  WITH f, s
  MATCH (f)-[:OBJECT]->(o)
  MATCH (s)-[edge {fact_id: f.id}]->(o)  // between its two ends: not every edge of a hub
  SET edge.status = 'disputed'
}
RETURN count(conflict) AS opened
