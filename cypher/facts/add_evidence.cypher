// Attach evidence to existing facts; raise their confidence to the highest asserted.
UNWIND $updates AS u
MATCH (f:Fact {ns: $ns, id: u.fact_id}) USING INDEX SEEK f:Fact(id)
SET f.confidence = CASE WHEN u.confidence > f.confidence THEN u.confidence ELSE f.confidence END,
    f.reasserted_at = $now
WITH f, u
CALL (f, u) {
  UNWIND u.evidence AS episode_id
  MATCH (ep:Episode {ns: $ns, id: episode_id}) USING INDEX SEEK ep:Episode(id)
  MERGE (f)-[ev:EVIDENCED_BY]->(ep)
    ON CREATE SET ev.at = $now
}
CALL (f) {
  MATCH (s)<-[:SUBJECT]-(f)-[:OBJECT]->(o)
  MATCH (s)-[r {fact_id: f.id}]->(o)  // between its two ends: not every edge of a hub subject
  SET r.confidence = f.confidence
}
RETURN count(f) AS updated
