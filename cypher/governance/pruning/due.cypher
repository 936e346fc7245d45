// Facts a pruning policy lets go of, oldest first: believed, not pinned, below the confidence,
// and not returned by any answer since the cutoff (never used: not since it was recorded);
// with the entities at their ends, to lock.
MATCH (f:Fact {ns: $ns}) USING INDEX f:Fact(ns)
WHERE f.retracted_at IS NULL AND f.pinned_at IS NULL AND f.confidence < $min_confidence
  AND coalesce(f.last_used_at, f.recorded_at) < $cutoff
WITH f ORDER BY f.recorded_at, f.id LIMIT $limit
OPTIONAL MATCH (f)-[:SUBJECT|OBJECT]->(x:Entity)
RETURN collect(DISTINCT f.id) AS ids, collect(DISTINCT x.id) AS entities
