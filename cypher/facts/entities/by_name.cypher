// One entity by normalised key or alias, with its aliases.
OPTIONAL MATCH (direct:Entity {ns: $ns, key: $key}) USING INDEX SEEK direct:Entity(ns, key)
OPTIONAL MATCH (alias:Alias {ns: $ns, key: $key})-[:ALIAS_OF]->(aliased:Entity {ns: $ns})
  USING INDEX SEEK alias:Alias(ns, key)
WITH coalesce(direct, aliased) AS e
WHERE e IS NOT NULL
RETURN e {.id, .name, .key, .type, .created_at, ns: e.ns} AS entity,
       [(a)-[:ALIAS_OF]->(e) WHERE a.ns = $ns | a.name] AS aliases
LIMIT 1
