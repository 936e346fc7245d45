// One entity by normalised key or alias, with its aliases.
OPTIONAL MATCH (direct:Entity {ns: $ns, key: $key})
OPTIONAL MATCH (:Alias {ns: $ns, key: $key})-[:ALIAS_OF]->(aliased:Entity {ns: $ns})
WITH coalesce(direct, aliased) AS e
WHERE e IS NOT NULL
OPTIONAL MATCH (a:Alias {ns: $ns})-[:ALIAS_OF]->(e)
RETURN e {.id, .name, .key, .type, .created_at, ns: e.ns} AS entity,
       collect(a.name) AS aliases
LIMIT 1
