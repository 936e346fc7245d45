// Episodes a policy applies to now: older than its cutoff, of its kind and sensitivity, not
// yet redacted when it redacts or archives, not yet archived when it archives. Oldest first,
// one batch.
MATCH (e:Episode {ns: $ns})
WHERE e.occurred_at < $cutoff
  AND ($kind IS NULL OR e.kind = $kind)
  AND ($sensitivity IS NULL OR e.sensitivity = $sensitivity)
  AND ($action = 'delete' OR e.redacted_at IS NULL)
  AND ($action <> 'archive' OR e.archived_at IS NULL)
RETURN e.id AS id
ORDER BY e.occurred_at, e.id
LIMIT $limit
