// Rebuild the NEXT chain of each session from just before the earliest new episode onward,
// ordered by (occurred_at, seq), so out-of-order batches still give one correct chain.
UNWIND $sessions AS sess
CALL (sess) {
  OPTIONAL MATCH (p:Episode {ns: $ns, session_id: sess.session_id})
  WHERE p.occurred_at < sess.earliest
  WITH p ORDER BY p.occurred_at DESC, p.seq DESC LIMIT 1
  RETURN collect(p) AS head
}
CALL (sess) {
  MATCH (t:Episode {ns: $ns, session_id: sess.session_id})
  WHERE t.occurred_at >= sess.earliest
  WITH t ORDER BY t.occurred_at, t.seq
  RETURN collect(t) AS tail
}
WITH head + tail AS chain
CALL (chain) {
  UNWIND chain AS x
  OPTIONAL MATCH (x)-[r:NEXT]->()
  DELETE r
}
CALL (chain) {
  UNWIND range(0, size(chain) - 2) AS i
  WITH chain[i] AS a, chain[i + 1] AS b
  CREATE (a)-[:NEXT]->(b)
}
RETURN count(*) AS sessions
