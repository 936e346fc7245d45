// A namespace's pruning policy, if it has one.
MATCH (p:PruningPolicy {ns: $ns})
RETURN p {.*} AS policy
