// Which of an import file's sessions were ephemeral and closed (erased) in the namespace: an
// import may not bring an erased conversation back. The lines that name them, in file order.
UNWIND $sessions AS s
MATCH (c:ClosedSession {ns: $ns, session_id: s.session_id})
USING INDEX SEEK c:ClosedSession(ns, session_id)
RETURN collect(s.line) AS lines
