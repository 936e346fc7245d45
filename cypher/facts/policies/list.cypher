// Every policy override of a namespace.
MATCH (p:PredicatePolicy {ns: $ns})
RETURN p {.*} AS policy
ORDER BY p.predicate
