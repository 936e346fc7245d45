// This namespace's policy overrides for some predicates.
UNWIND $predicates AS predicate
MATCH (p:PredicatePolicy {ns: $ns, predicate: predicate})
RETURN p {.*} AS policy
