// A namespace's pinned facts (always remember) believed and valid now, newest pin first:
// recall offers them every turn, whatever the query names.
MATCH (f:Fact {ns: $ns}) USING INDEX f:Fact(ns, pinned_at)
WHERE f.pinned_at IS NOT NULL AND f.retracted_at IS NULL
  AND (f.valid_from IS NULL OR f.valid_from <= $now)
  AND (f.valid_to IS NULL OR f.valid_to > $now)
WITH f ORDER BY f.pinned_at DESC, f.id LIMIT $limit
RETURN collect(f {.*, embedding: null}) AS rows
