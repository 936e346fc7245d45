// Everything memory has held about an entity, in world-time order (when it became true, or
// when it was recorded if that is unknown), history included, after a keyset cursor.
MATCH (e:Entity {ns: $ns, id: $entity_id})<-[:SUBJECT|OBJECT]-(f:Fact {ns: $ns})
WITH DISTINCT f, coalesce(f.valid_from, f.recorded_at) AS at
WHERE $after_at IS NULL OR at > $after_at OR (at = $after_at AND f.id > $after_id)
RETURN f {.*} AS fact, at
ORDER BY at, f.id
LIMIT $limit
