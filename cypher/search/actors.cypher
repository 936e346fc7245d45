// The namespace's speakers (key -> name as recorded), for telling their names in queries.
MATCH (a:Actor {ns: $ns})
RETURN a.key AS key, a.name AS name
ORDER BY key
LIMIT $limit
