// Remove a namespace's pruning policy.
OPTIONAL MATCH (p:PruningPolicy {ns: $ns})
DETACH DELETE p
RETURN count(p) AS removed
