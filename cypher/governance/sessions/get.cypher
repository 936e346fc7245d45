// One session's bookkeeping: whether it is ephemeral, and when it was last written to.
MATCH (s:Session {ns: $ns, session_id: $session_id})
RETURN s {.session_id, .ephemeral_ttl_s, .updated_at} AS session
