// An entity's story in world-time order (when each fact became true, or when it was
// recorded if that is unknown): what memory believes now, or every version with $history.
MATCH (e:Entity {ns: $ns, id: $entity_id})<-[:SUBJECT|OBJECT]-(f)  // f: a Fact, by type
USING INDEX SEEK e:Entity(id)
WHERE f.ns = $ns AND ($history OR f.retracted_at IS NULL)
WITH DISTINCT f, coalesce(f.valid_from, f.recorded_at) AS at
WHERE $after_at IS NULL OR at > $after_at OR (at = $after_at AND f.id > $after_id)
RETURN f {.*, embedding: null} AS fact, at
ORDER BY at, f.id
LIMIT $limit
