// A restatement: attach its evidence to the fact, and set the confidence and source
// resolution.restated decided (null: unchanged). The edge between the fact's ends is only
// touched when its confidence changes: re-asserting a known fact is the common case.
CYPHER replan=skip  // the write path keeps its plan: see graphmem/db/statements.py
UNWIND $updates AS u
MATCH (f:Fact {ns: $ns, id: u.fact_id}) USING INDEX SEEK f:Fact(id)
WITH f, u, u.confidence IS NOT NULL AS changes
SET f.confidence = coalesce(u.confidence, f.confidence),
    f.source = coalesce(u.source, f.source),
    f.reasserted_at = $now
WITH f, u, changes
CALL (f, u) {
  UNWIND u.evidence AS episode_id
  MATCH (ep:Episode {ns: $ns, id: episode_id}) USING INDEX SEEK ep:Episode(id)
  MERGE (f)-[ev:EVIDENCED_BY]->(ep)
    ON CREATE SET ev.at = $now
}
CALL (f, changes) {
  WITH f WHERE changes
  MATCH (s)<-[:SUBJECT]-(f)-[:OBJECT]->(o)
  MATCH (s)-[r {fact_id: f.id}]->(o)  // between its two ends: not every edge of a hub subject
  SET r.confidence = f.confidence
}
RETURN count(f) AS updated
