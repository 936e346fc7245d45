// Remove one retention policy (episodes it would have swept stay).
MATCH (p:RetentionPolicy {ns: $ns, key: $key})
DELETE p
RETURN count(*) AS removed
