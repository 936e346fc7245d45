// A namespace's sessions, most recently active first, after a keyset cursor
// [last_at, session_id]; sessions whose episodes were all erased are left out.
MATCH (s:Session {ns: $ns})
CALL (s) {
  MATCH (s)<-[:IN_SESSION]-(e:Episode)
  RETURN count(e) AS episodes, min(e.occurred_at) AS first_at, max(e.occurred_at) AS last_at
}
WITH s, episodes, first_at, last_at
WHERE last_at IS NOT NULL
  AND ($after_t IS NULL OR last_at < $after_t
       OR (last_at = $after_t AND s.session_id < $after_id))
RETURN s.session_id AS session_id, episodes, first_at, last_at,
       s.ephemeral_ttl_s AS ephemeral_ttl_s
ORDER BY last_at DESC, session_id DESC
LIMIT $limit
