// Current facts where each entity is subject or object (DataLoader for Entity.facts*).
UNWIND $entity_ids AS entity_id
MATCH (e:Entity {ns: $ns, id: entity_id})<-[role:SUBJECT|OBJECT]-(f:Fact {ns: $ns})
WHERE f.status IN $statuses
RETURN entity_id, type(role) AS role, f {.*} AS fact
ORDER BY f.recorded_at DESC
LIMIT 100000
