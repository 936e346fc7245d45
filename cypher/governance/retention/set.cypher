// Set the retention policy for one (kind, sensitivity) pair of a namespace ('*': any).
MERGE (p:RetentionPolicy {ns: $ns, key: $key})
  ON CREATE SET p.created_at = $now
SET p.kind = $kind, p.sensitivity = $sensitivity, p.max_age_s = $max_age_s,
    p.action = $action, p.keep_searchable = $keep_searchable, p.updated_at = $now,
    p.updated_by = $actor
RETURN p {.*} AS policy
