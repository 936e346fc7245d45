// Where a session's summaries stand: how far they reach (arrival order) and the newest
// level-1 summary, which the next one folds new episodes into (unless it is stale).
MATCH (s:Session {ns: $ns, session_id: $session_id})
OPTIONAL MATCH (m:Summary {ns: $ns, level: 1})
WHERE m.session_id = $session_id
WITH s, m ORDER BY m.created_at DESC
WITH s, collect(m)[0] AS latest
RETURN coalesce(s.summarized_seq, 0) AS summarized_seq, latest {.*, embedding: null} AS latest
