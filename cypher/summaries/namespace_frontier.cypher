// The fresh summaries of a level nothing summarises yet: level-1 session summaries waiting
// for a namespace summary, or the newest namespace summary to fold them into.
MATCH (m:Summary {ns: $ns, level: $level})
WHERE NOT m.stale AND NOT EXISTS { MATCH (:Summary)-[:SUMMARIZES]->(m) }
RETURN m {.*} AS summary
ORDER BY m.covers_to, m.created_at, m.id
LIMIT $limit
