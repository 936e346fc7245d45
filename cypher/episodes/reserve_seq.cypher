// Create missing sessions and reserve a block of arrival sequence numbers in each; count
// the tokens not yet summarised (the summary trigger). The first SET takes the session's
// write lock, so `last_seq` is read only once no other writer holds it: read before the
// lock, concurrent batches got the same numbers.
UNWIND $sessions AS sess
MERGE (s:Session {ns: $ns, session_id: sess.session_id})
  ON CREATE SET s.created_at = $now, s.last_seq = 0
SET s.updated_at = $now
WITH s, sess, s.last_seq AS base
SET s.last_seq = base + sess.count,
    s.pending_tokens = coalesce(s.pending_tokens, 0) + sess.tokens
RETURN collect({session_id: sess.session_id, base: base}) AS rows
