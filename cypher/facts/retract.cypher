// Withdraw a fact: belief closes (status retracted, when, by whom, why); the statement node,
// its edge and its evidence stay for the audit, linked to the observation that records it.
MATCH (f:Fact {ns: $ns, id: $id})-[:SUBJECT]->(s) USING INDEX SEEK f:Fact(id)
MATCH (ep:Episode {ns: $ns, id: $episode_id}) USING INDEX SEEK ep:Episode(id)
SET f.status = 'retracted', f.retracted_at = $now, f.reason = $reason, f.ended_by = $actor
CREATE (f)-[:RETRACTED_IN]->(ep)
WITH f, s
MATCH (f)-[:OBJECT]->(o)
MATCH (s)-[edge {fact_id: f.id}]->(o)  // between its two ends: not every edge of a hub
SET edge.status = 'retracted'
RETURN f.id AS id
