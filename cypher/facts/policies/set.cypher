// Override one predicate's policy for a namespace (one node per namespace and predicate).
MERGE (p:PredicatePolicy {ns: $ns, predicate: $predicate})
SET p.cardinality = $cardinality, p.strategy = $strategy, p.updated_at = $now,
    p.updated_by = $actor
RETURN p {.*} AS policy
