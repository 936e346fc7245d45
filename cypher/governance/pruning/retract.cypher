// Retract pruned facts (checked again under the entities' locks: pinned, used or retracted
// meanwhile, a fact is spared). The record, its edge and its evidence stay for the audit.
UNWIND $ids AS id
MATCH (f:Fact {ns: $ns, id: id})-[:SUBJECT]->(s) USING INDEX SEEK f:Fact(id)
WHERE f.retracted_at IS NULL AND f.pinned_at IS NULL
  AND coalesce(f.last_used_at, f.recorded_at) < $cutoff
SET f.status = 'retracted', f.retracted_at = $now, f.reason = $reason, f.ended_by = $actor
WITH f, s
CALL (f, s) {
  MATCH (f)-[:OBJECT]->(o)
  MATCH (s)-[edge {fact_id: f.id}]->(o)  // between its two ends: not every edge of a hub
  SET edge.status = 'retracted'
}
RETURN collect(f.id) AS retracted
