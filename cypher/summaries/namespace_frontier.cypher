// The fresh session (level-1) summaries no fresh summary covers yet: what the next namespace
// summary folds into the previous one.
MATCH (m:Summary {ns: $ns, level: 1})
WHERE NOT m.stale
  AND NOT EXISTS { MATCH (above:Summary)-[:SUMMARIZES]->(m) WHERE NOT above.stale }
RETURN m {.*, embedding: null} AS summary
ORDER BY m.covers_to, m.created_at, m.id
LIMIT $limit
