// The newest fresh namespace (level-2) summary, which the next one folds into.
MATCH (m:Summary {ns: $ns, level: 2})
WHERE NOT m.stale
RETURN m {.*, embedding: null} AS summary
ORDER BY m.created_at DESC, m.id DESC
LIMIT 1
