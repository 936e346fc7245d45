// Attach evidence to existing facts; raise their confidence to the highest asserted. The rise
// is decided before anything is written (no read/write conflict, so no Eager), and the edge
// is only touched when it rises: re-asserting a known fact is the common case.
CYPHER replan=skip  // the write path keeps its plan: see graphmem/db/statements.py
UNWIND $updates AS u
MATCH (f:Fact {ns: $ns, id: u.fact_id}) USING INDEX SEEK f:Fact(id)
WITH f, u, u.confidence > f.confidence AS rises
SET f.confidence = CASE WHEN rises THEN u.confidence ELSE f.confidence END,
    f.reasserted_at = $now
WITH f, u, rises
CALL (f, u) {
  UNWIND u.evidence AS episode_id
  MATCH (ep:Episode {ns: $ns, id: episode_id}) USING INDEX SEEK ep:Episode(id)
  MERGE (f)-[ev:EVIDENCED_BY]->(ep)
    ON CREATE SET ev.at = $now
}
CALL (f, rises) {
  WITH f WHERE rises
  MATCH (s)<-[:SUBJECT]-(f)-[:OBJECT]->(o)
  MATCH (s)-[r {fact_id: f.id}]->(o)  // between its two ends: not every edge of a hub subject
  SET r.confidence = f.confidence
}
RETURN count(f) AS updated
