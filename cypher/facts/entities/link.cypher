// Which of these normalised phrases name an entity (directly or by alias) in the namespace,
// with its aliases and its write version (the cache key for its facts).
UNWIND $keys AS key
OPTIONAL MATCH (direct:Entity {ns: $ns, key: key}) USING INDEX SEEK direct:Entity(ns, key)
OPTIONAL MATCH (alias:Alias {ns: $ns, key: key})-[:ALIAS_OF]->(aliased:Entity {ns: $ns})
  USING INDEX SEEK alias:Alias(ns, key)
WITH DISTINCT coalesce(direct, aliased) AS e
WHERE e IS NOT NULL
RETURN e {.id, .name, .key, .type, .created_at, ns: e.ns} AS entity,
       [(a)-[:ALIAS_OF]->(e) WHERE a.ns = $ns | a.name] AS aliases,
       coalesce(e.write_version, 0) AS version
