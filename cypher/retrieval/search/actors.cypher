// The namespace's speakers among $keys (a query's word n-grams; see
// core.identifiers.actor_key): key -> name as recorded, for telling their names in queries.
MATCH (a:Actor {ns: $ns})
WHERE a.key IN $keys
RETURN a.key AS key, a.name AS name
ORDER BY key
