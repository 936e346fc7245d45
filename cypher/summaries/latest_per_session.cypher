// The newest fresh summary of each session: what a namespace summary is rebuilt from.
MATCH (m:Summary {ns: $ns, level: 1})
WHERE NOT m.stale AND m.session_id IS NOT NULL
WITH m ORDER BY m.created_at DESC
WITH m.session_id AS session_id, collect(m)[0] AS latest
RETURN latest {.*, embedding: null} AS summary
ORDER BY latest.covers_to, latest.id
LIMIT $limit
