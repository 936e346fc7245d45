// Graphiti's facts of one group: RELATES_TO edges with their validity (valid_at, invalid_at),
// when Graphiti stopped believing them (expired_at) and the episodes they came from.
MATCH (a:Entity)-[r:RELATES_TO]->(b:Entity)
WHERE r.group_id = $group
RETURN r.uuid AS uuid, a.uuid AS source, b.uuid AS target, r.name AS name, r.fact AS fact,
       coalesce(r.episodes, []) AS episodes, r.created_at AS created_at,
       r.valid_at AS valid_at, r.invalid_at AS invalid_at, r.expired_at AS expired_at
ORDER BY r.created_at, r.uuid
