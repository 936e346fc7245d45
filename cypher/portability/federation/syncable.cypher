// Sync, on the shared side: every node of the namespace a sync carries (label and key). A
// push fingerprints them all first, so what was written here directly, not pushed (a fact
// asserted on the shared service, a fact forgotten there, a summary gone stale), is stamped
// for every device's pull.
CALL () {
  MATCH (n:Entity {ns: $ns}) RETURN 'Entity' AS label, n.id AS key
  UNION ALL
  MATCH (n:Value {ns: $ns}) RETURN 'Value' AS label, n.id AS key
  UNION ALL
  MATCH (n:Alias {ns: $ns}) RETURN 'Alias' AS label, n.key AS key
  UNION ALL
  MATCH (n:DeviceTurn {ns: $ns}) RETURN 'DeviceTurn' AS label, n.id AS key
  UNION ALL
  MATCH (n:Fact {ns: $ns}) RETURN 'Fact' AS label, n.id AS key
  UNION ALL
  MATCH (n:Summary {ns: $ns}) RETURN 'Summary' AS label, n.id AS key
  UNION ALL
  MATCH (n:Conflict {ns: $ns}) RETURN 'Conflict' AS label, n.id AS key
  UNION ALL
  MATCH (n:PredicatePolicy {ns: $ns}) RETURN 'PredicatePolicy' AS label, n.predicate AS key
}
RETURN collect({label: label, key: key}) AS nodes
