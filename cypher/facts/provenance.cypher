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
CALL (f) {  // evidence held on another device (graphmem sync): a reference, never the turn
  UNWIND [(f)-[:EVIDENCED_BY_TURN]->(t) WHERE t.ns = $ns | t] AS t  // t: a DeviceTurn, by type
  WITH t ORDER BY t.said_at, t.id
  RETURN collect(t {.id, .device, .said_at, .content_hash}) AS turns
}
CALL (f) {
  UNWIND [(sum)-[:CITES]->(f) WHERE sum.ns = $ns | sum] AS sum
  RETURN collect(DISTINCT sum {.*, embedding: null}) AS summaries
}
// The supersession chain both ways: every fact up to 100 links away, at most 100 of them each
// way. DISTINCT right after the walk makes Neo4j search breadth first and visit each fact
// once (VarLengthExpand(Pruning,BFS)); a list of paths enumerated every path, and over an
// imported cycle of five facts that ran for minutes and ran Neo4j out of memory.
CALL (f) {
  MATCH (f)-[:SUPERSEDES*1..100]->(older)
  WITH DISTINCT older WHERE older.ns = $ns AND older <> f  // f again: a stored cycle
  WITH older ORDER BY older.recorded_at DESC, older.id LIMIT 100
  RETURN collect(older {.*, embedding: null}) AS supersedes
}
CALL (f) {
  MATCH (newer)-[:SUPERSEDES*1..100]->(f)
  WITH DISTINCT newer WHERE newer.ns = $ns AND newer <> f
  WITH newer ORDER BY newer.recorded_at DESC, newer.id LIMIT 100
  RETURN collect(newer {.*, embedding: null}) AS superseded_by
}
RETURN f {.*, embedding: null} AS fact, evidence, turns, summaries, supersedes, superseded_by
