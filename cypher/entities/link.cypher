// Which of these normalised phrases name an entity (directly or by alias) in the namespace,
// with its aliases and its write version (the cache key for its facts).
UNWIND $keys AS key
OPTIONAL MATCH (direct:Entity {ns: $ns, key: key})
OPTIONAL MATCH (:Alias {ns: $ns, key: key})-[:ALIAS_OF]->(aliased:Entity {ns: $ns})
WITH DISTINCT coalesce(direct, aliased) AS e
WHERE e IS NOT NULL
OPTIONAL MATCH (a:Alias {ns: $ns})-[:ALIAS_OF]->(e)
RETURN e {.id, .name, .key, .type, .created_at, ns: e.ns} AS entity, collect(a.name) AS aliases,
       coalesce(e.write_version, 0) AS version
