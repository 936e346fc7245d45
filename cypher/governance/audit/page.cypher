// A namespace's audit events, newest first, after a keyset cursor.
MATCH (a:AuditEvent {ns: $ns})
WHERE $after_t IS NULL OR a.at < $after_t OR (a.at = $after_t AND a.id < $after_id)
RETURN a {.*} AS event
ORDER BY a.at DESC, a.id DESC
LIMIT $limit
