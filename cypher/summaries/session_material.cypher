// A session's episodes after an arrival position, in arrival order (what a summary folds in).
MATCH (:Session {ns: $ns, session_id: $session_id})<-[:IN_SESSION]-(e:Episode)
WHERE e.seq > $after_seq
RETURN e {.*, embedding: null} AS episode
ORDER BY e.seq
LIMIT $limit
