// Graphiti's entities of one group, with their custom types (labels besides Entity).
MATCH (n:Entity)
WHERE n.group_id = $group
RETURN n.uuid AS uuid, n.name AS name, [l IN labels(n) WHERE l <> 'Entity'] AS types,
       n.created_at AS created_at
ORDER BY n.created_at, n.uuid
