// Rebuild the NEXT chain of each session from just before the earliest new episode onward,
// ordered by (occurred_at, seq), so out-of-order batches still give one correct chain.
// Each turn is searched in its conversation: `context` (and `context_actor`) is the turn
// before it ("Porto, next month." only makes sense after "Which city are you moving to?"),
// embedded with it; `window` is the previous, own and next turn with their speakers, for
// BM25. Both follow the chain, so the turn before the earliest new one (or before a gap an
// erasure left) is rewritten too, and a session's first turn has no context. A turn whose
// predecessor changed loses its embedding (made with the old one) until it is embedded again. The hints keep the planner on the session's time
// index (it otherwise picked the namespace index and filtered every episode of it).
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
WITH head + tail AS chain, size(head) > 0 AS has_head
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
CALL (chain, has_head) {
  UNWIND range(0, size(chain) - 1) AS i
  WITH chain[i] AS x, CASE WHEN i > 0 THEN chain[i - 1] END AS before,
       CASE WHEN i < size(chain) - 1 THEN chain[i + 1] END AS after,
       i = 0 AND has_head AS keeps_context  // the head's predecessor is not in the chain
  WITH x, after,
       CASE WHEN keeps_context THEN x.context ELSE before.content END AS context,
       CASE WHEN keeps_context THEN x.context_actor ELSE before.actor END AS context_actor
  WITH x, context, context_actor,
       coalesce(coalesce(context_actor + ': ', '') + context + '\n', '')
       + coalesce(x.actor + ': ', '') + x.content
       + coalesce('\n' + coalesce(after.actor + ': ', '') + after.content, '') AS window
  WITH x, context, context_actor, window,
       coalesce(x.context, '') <> coalesce(context, '') AS context_changed
  WHERE context_changed OR x.window IS NULL OR x.window <> window
  SET x.context = context, x.context_actor = context_actor, x.window = window
  WITH x, context_changed WHERE context_changed
  SET x:EmbedPending
  REMOVE x.embedding  // it was made with the old context, which may have been erased
}
RETURN count(*) AS sessions
