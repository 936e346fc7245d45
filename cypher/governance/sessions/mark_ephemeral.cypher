// Make a session ephemeral (made here if it has no episode yet): erased, with a receipt, when
// closed or idle past its time to live. A session closed before stays closed: with its
// tombstone, the answer says so and the caller undoes the session made here.
MERGE (s:Session {ns: $ns, session_id: $session_id})
  ON CREATE SET s.created_at = $now, s.updated_at = $now, s.last_seq = 0
SET s.ephemeral_ttl_s = $ttl_s
RETURN s {.session_id, .ephemeral_ttl_s, .updated_at} AS session,
       EXISTS { MATCH (c:ClosedSession {ns: $ns, session_id: $session_id})
                USING INDEX SEEK c:ClosedSession(ns, session_id) } AS closed
