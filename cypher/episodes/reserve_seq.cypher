// Create missing sessions and reserve a block of arrival sequence numbers in each; count
// the tokens not yet summarised (the summary trigger). The first SET takes the session's
// write lock, so `last_seq` is read only once no other writer holds it: read before the
// lock, concurrent batches got the same numbers. Under the lock, each session's last stored
// turn (by occurred_at, seq) is read too: a batch that only appends after it links its
// turns in the create statement, without `episodes/relink`. Also read under the lock: whether
// the session was closed (ephemeral, erased: its tombstone), committed while this writer
// waited or before; the caller refuses the batch then, which undoes the session made here.
CYPHER replan=skip  // the write path keeps its plan: see graphmem/db/statements.py
UNWIND $sessions AS sess
MERGE (s:Session {ns: $ns, session_id: sess.session_id})
  ON CREATE SET s.created_at = $now, s.last_seq = 0
SET s.updated_at = $now
WITH s, sess, s.last_seq AS base
SET s.last_seq = base + sess.count,
    s.pending_tokens = coalesce(s.pending_tokens, 0) + sess.tokens
WITH sess, base,
     EXISTS { MATCH (c:ClosedSession {ns: $ns, session_id: sess.session_id})
              USING INDEX SEEK c:ClosedSession(ns, session_id) } AS closed
CALL (sess) {
  MATCH (p:Episode {ns: $ns, session_id: sess.session_id})
  USING INDEX SEEK p:Episode(ns, session_id, occurred_at)
  WHERE p.occurred_at IS NOT NULL
  WITH p.occurred_at AS at ORDER BY at DESC LIMIT 1  // index entries only, no node reads
  MATCH (p:Episode {ns: $ns, session_id: sess.session_id, occurred_at: at})
  USING INDEX SEEK p:Episode(ns, session_id, occurred_at)
  WITH p ORDER BY p.seq DESC LIMIT 1
  RETURN collect(p {.id, .occurred_at, .actor, .content, .context, .context_actor}) AS last
}
RETURN collect({session_id: sess.session_id, base: base, last: last[0], closed: closed}) AS rows
