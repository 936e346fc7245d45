// Which of an import file's sessions were ephemeral and closed (erased) in the namespace: an
// import may not bring an erased conversation back. The lines that name them, in file order.
UNWIND $sessions AS s
MATCH (:ClosedSession {ns: $ns, session_id: s.session_id})
RETURN collect(s.line) AS lines
