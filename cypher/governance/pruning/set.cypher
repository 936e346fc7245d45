// Set a namespace's pruning policy: believed, unpinned facts below a confidence that no
// answer has used for so long are retracted (reason: pruned).
MERGE (p:PruningPolicy {ns: $ns})
  ON CREATE SET p.created_at = $now
SET p.min_confidence = $min_confidence, p.unused_for_s = $unused_for_s,
    p.updated_at = $now, p.updated_by = $actor
RETURN p {.*} AS policy
