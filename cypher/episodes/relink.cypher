// Rebuild the NEXT chain of each session from just before the earliest new episode onward,
// ordered by (occurred_at, seq), so out-of-order batches still give one correct chain.
// Each turn is searched together with the one before it ("Porto, next month." only makes
// sense after "Which city are you moving to?"): `context` follows the chain, and a turn
// whose predecessor changed is embedded again. The hints keep the planner on the session's
// time index (it otherwise picked the namespace index and filtered every episode of it).
UNWIND $sessions AS sess
CALL (sess) {
  MATCH (p:Episode {ns: $ns, session_id: sess.session_id})
  USING INDEX SEEK p:Episode(ns, session_id, occurred_at)
  WHERE p.occurred_at < sess.earliest
  WITH p.occurred_at AS at ORDER BY at DESC LIMIT 1  // index entries only, no node reads
  MATCH (p:Episode {ns: $ns, session_id: sess.session_id, occurred_at: at})
  USING INDEX SEEK p:Episode(ns, session_id, occurred_at)
  WITH p ORDER BY p.seq DESC LIMIT 1
  RETURN collect(p) AS head
}
CALL (sess) {
  MATCH (t:Episode {ns: $ns, session_id: sess.session_id})
  USING INDEX SEEK t:Episode(ns, session_id, occurred_at)
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
  WITH a, b
  WHERE b.context IS NULL OR b.context <> a.content
  SET b.context = a.content, b:EmbedPending
}
RETURN count(*) AS sessions
