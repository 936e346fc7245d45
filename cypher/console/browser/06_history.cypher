// History is never overwritten
// Superseded, disputed and retracted facts stay in the graph with their status and reason; a
// fact that lost part of its validity lives on as a version that REVISES it. A person's story
// reads in world time (valid_from), or in the order memory learnt it (recorded_at).
MATCH (f:Fact {ns: $ns})-[:SUBJECT|OBJECT]->(e:Entity {ns: $ns})
WHERE e.key = toLower(trim($entity))
   OR EXISTS { (:Alias {ns: $ns, key: toLower(trim($entity))})-[:ALIAS_OF]->(e) }
RETURN DISTINCT f.text AS fact, f.status AS status, f.valid_from AS valid_from,
       f.valid_to AS valid_to, f.recorded_at AS recorded_at, f.retracted_at AS retracted_at,
       f.reason AS reason
ORDER BY coalesce(f.valid_from, f.recorded_at)
