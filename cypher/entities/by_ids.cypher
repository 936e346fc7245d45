// Entities by id within the namespace, with their aliases.
MATCH (e:Entity {ns: $ns})
WHERE e.id IN $ids
OPTIONAL MATCH (a:Alias {ns: $ns})-[:ALIAS_OF]->(e)
RETURN e {.id, .name, .key, .type, .created_at, ns: e.ns} AS entity, collect(a.name) AS aliases
