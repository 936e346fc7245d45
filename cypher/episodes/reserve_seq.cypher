// Create missing sessions and reserve a block of arrival sequence numbers in each; count
// the tokens not yet summarised (the summary trigger).
UNWIND $sessions AS sess
MERGE (s:Session {ns: $ns, session_id: sess.session_id})
  ON CREATE SET s.created_at = $now, s.last_seq = 0
WITH s, sess, s.last_seq AS base
SET s.last_seq = base + sess.count, s.updated_at = $now,
    s.pending_tokens = coalesce(s.pending_tokens, 0) + sess.tokens
RETURN sess.session_id AS session_id, base
