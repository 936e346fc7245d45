// The freshest summary of a session (highest level first, then newest; stale ones last).
MATCH (s:Summary {ns: $ns, session_id: $session_id})
RETURN s {.*, embedding: null} AS summary
ORDER BY s.stale ASC, s.level DESC, s.created_at DESC
LIMIT 1
