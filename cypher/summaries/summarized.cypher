// After a session summary: how far it reaches, and the token count starts again.
MATCH (s:Session {ns: $ns, session_id: $session_id})
SET s.summarized_seq = $seq, s.pending_tokens = 0
RETURN s.session_id AS session_id
