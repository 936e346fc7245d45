// Close memory's belief in facts (superseded or retracted): the statement node and its edge
// keep everything, with the status, the moment and the reason.
UNWIND $ends AS e
MATCH (f:Fact {ns: $ns, id: e.id})-[:SUBJECT]->(s) USING INDEX SEEK f:Fact(id)
WHERE f.retracted_at IS NULL OR f.retracted_at = $now
SET f.status = $status, f.retracted_at = $now, f.reason = e.reason, f.ended_by = $actor
WITH f, s
CALL (f, s) {
  MATCH (f)-[:OBJECT]->(o)
  MATCH (s)-[edge {fact_id: f.id}]->(o)  // between its two ends: not every edge of a hub
  SET edge.status = f.status
}
RETURN count(f) AS ended
