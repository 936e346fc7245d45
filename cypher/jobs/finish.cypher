// Mark a job done with what it did, linked to the facts and summaries it produced.
MATCH (j:Job {ns: $ns, id: $id}) USING INDEX SEEK j:Job(id)
SET j += $stats, j.state = 'done', j.finished_at = $now, j.updated_at = $now,
    j.error = null, j.lease_until = null
WITH j
CALL (j) {
  UNWIND $fact_ids AS fact_id
  MATCH (f:Fact {ns: $ns, id: fact_id}) USING INDEX SEEK f:Fact(id)
  MERGE (j)-[:PRODUCED]->(f)
}
CALL (j) {
  UNWIND $summary_ids AS summary_id
  MATCH (s:Summary {ns: $ns, id: summary_id}) USING INDEX SEEK s:Summary(id)
  MERGE (j)-[:PRODUCED]->(s)
}
RETURN j {.*} AS job
