// The audit of one fact: its evidence, citing summaries and the supersession chain in both
// directions, in one round trip (the evidence was a second statement, through a DataLoader).
// Nodes reached from the fact carry no label here (the relationship types imply it), so the
// planner walks out from the fact instead of seeking the whole namespace's facts and joining.
MATCH (f:Fact {ns: $ns, id: $id}) USING INDEX SEEK f:Fact(id)
CALL (f) {
  MATCH (f)-[ev:EVIDENCED_BY]->(e)
  WHERE e.ns = $ns  // e: an Episode, by type
  WITH e, ev ORDER BY e.occurred_at
  RETURN collect({episode: e {.*, embedding: null}, quote: ev.quote}) AS evidence
}
CALL (f) {
  UNWIND [(sum)-[:CITES]->(f) WHERE sum.ns = $ns | sum] AS sum
  RETURN collect(DISTINCT sum {.*, embedding: null}) AS summaries
}
CALL (f) {
  UNWIND [(f)-[:SUPERSEDES*1..50]->(older) WHERE older.ns = $ns | older] AS older
  RETURN collect(DISTINCT older {.*, embedding: null}) AS supersedes
}
CALL (f) {
  UNWIND [(newer)-[:SUPERSEDES*1..50]->(f) WHERE newer.ns = $ns | newer] AS newer
  RETURN collect(DISTINCT newer {.*, embedding: null}) AS superseded_by
}
RETURN f {.*, embedding: null} AS fact, evidence, summaries, supersedes, superseded_by
