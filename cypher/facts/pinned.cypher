// A namespace's facts pinned (always remember) by $now and believed and valid then, newest
// pin first: recall offers them every turn, whatever the query names ($now is the present,
// or the instant recall travels back to).
MATCH (f:Fact {ns: $ns}) USING INDEX f:Fact(ns, pinned_at)
WHERE f.pinned_at IS NOT NULL AND f.pinned_at <= $now AND f.recorded_at <= $now
  AND (f.retracted_at IS NULL OR f.retracted_at > $now)
  AND (f.valid_from IS NULL OR f.valid_from <= $now)
  AND (f.valid_to IS NULL OR f.valid_to > $now)
WITH f ORDER BY f.pinned_at DESC, f.id LIMIT $limit
RETURN collect(f {.*, embedding: null}) AS rows
