// The namespaces that have retention policies (the sweeper's round).
MATCH (p:RetentionPolicy)
WHERE p.ns IS NOT NULL
RETURN DISTINCT p.ns AS ns
LIMIT $limit
