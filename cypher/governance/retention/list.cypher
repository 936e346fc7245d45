// A namespace's retention policies.
MATCH (p:RetentionPolicy {ns: $ns})
RETURN p {.*} AS policy
ORDER BY p.key
