// Entities by id within the namespace, with their aliases.
MATCH (e:Entity {ns: $ns}) USING INDEX SEEK e:Entity(id)
WHERE e.id IN $ids
RETURN e {.id, .name, .key, .type, .created_at, ns: e.ns} AS entity,
       [(a)-[:ALIAS_OF]->(e) WHERE a.ns = $ns | a.name] AS aliases
