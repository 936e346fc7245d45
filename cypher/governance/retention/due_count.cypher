// How many episodes a policy would sweep now (a dry run).
MATCH (e:Episode {ns: $ns})
WHERE e.occurred_at < $cutoff
  AND ($kind IS NULL OR e.kind = $kind)
  AND ($sensitivity IS NULL OR e.sensitivity = $sensitivity)
  AND ($action = 'delete' OR e.redacted_at IS NULL)
  AND ($action <> 'archive' OR e.archived_at IS NULL)
RETURN count(e) AS due
