// The namespaces with a pruning policy (the worker's round).
MATCH (p:PruningPolicy)
WHERE p.ns IS NOT NULL
RETURN p.ns AS ns
ORDER BY ns
LIMIT $limit
