// Close a conflict by decision (who, when, why, which fact was kept). Candidates still
// believed and held by no other open conflict are no longer disputed.
MATCH (c:Conflict {ns: $ns, id: $id, status: 'open'})
SET c.status = 'resolved', c.resolved_at = $now, c.resolved_by = $actor, c.reason = $reason,
    c.kept = $keep
WITH c
CALL (c) {
  MATCH (c)-[:CANDIDATE]->(f:Fact)-[:SUBJECT]->(s)
  WHERE f.retracted_at IS NULL
    AND NOT EXISTS { (:Conflict {ns: $ns, status: 'open'})-[:CANDIDATE]->(f) }
  SET f.status = 'active'
  WITH f, s
  MATCH (s)-[edge {fact_id: f.id}]->()
  SET edge.status = 'active'
}
RETURN c.id AS id
