// The newest $per_fact evidence turns of each fact still holding their words (not archived),
// for recall to read what a fact was learned from: a fact restated every day costs no more.
UNWIND $fact_ids AS fact_id
CALL (fact_id) {
  MATCH (f:Fact {ns: $ns, id: fact_id})-[ev:EVIDENCED_BY]->(e) USING INDEX SEEK f:Fact(id)
  WHERE e.ns = $ns AND e.archived_at IS NULL  // e: an Episode, by type
  WITH e, ev ORDER BY e.occurred_at DESC LIMIT $per_fact
  RETURN collect({episode: e {.*, embedding: null}, quote: ev.quote}) AS evidence
}
RETURN fact_id, evidence
