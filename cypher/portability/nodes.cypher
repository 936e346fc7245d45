// Every node of a namespace, label by label in the order of graphmem/portability/format.py
// LABELS (a test keeps the two lists equal): what `graphmem export` streams. A session's
// episodes come in their order, so an import appends to each session's chain.
CALL () {
  MATCH (n:Actor {ns: $ns}) WITH n RETURN 'Actor' AS label, n
  UNION ALL
  MATCH (n:Session {ns: $ns}) WITH n RETURN 'Session' AS label, n
  UNION ALL
  MATCH (n:Entity {ns: $ns}) WITH n RETURN 'Entity' AS label, n
  UNION ALL
  MATCH (n:Value {ns: $ns}) WITH n RETURN 'Value' AS label, n
  UNION ALL
  MATCH (n:Alias {ns: $ns}) WITH n RETURN 'Alias' AS label, n
  UNION ALL
  MATCH (n:Episode {ns: $ns}) WITH n ORDER BY n.session_id, n.occurred_at, n.seq RETURN 'Episode' AS label, n
  UNION ALL
  MATCH (n:DeviceTurn {ns: $ns}) WITH n RETURN 'DeviceTurn' AS label, n
  UNION ALL
  MATCH (n:Fact {ns: $ns}) WITH n RETURN 'Fact' AS label, n
  UNION ALL
  MATCH (n:Summary {ns: $ns}) WITH n RETURN 'Summary' AS label, n
  UNION ALL
  MATCH (n:Conflict {ns: $ns}) WITH n RETURN 'Conflict' AS label, n
  UNION ALL
  MATCH (n:EntityMerge {ns: $ns}) WITH n RETURN 'EntityMerge' AS label, n
  UNION ALL
  MATCH (n:PredicatePolicy {ns: $ns}) WITH n RETURN 'PredicatePolicy' AS label, n
  UNION ALL
  MATCH (n:RetentionPolicy {ns: $ns}) WITH n RETURN 'RetentionPolicy' AS label, n
  UNION ALL
  MATCH (n:PruningPolicy {ns: $ns}) WITH n RETURN 'PruningPolicy' AS label, n
  UNION ALL
  MATCH (n:PipelineSwitches {ns: $ns}) WITH n RETURN 'PipelineSwitches' AS label, n
  UNION ALL
  MATCH (n:AuditEvent {ns: $ns}) WITH n RETURN 'AuditEvent' AS label, n
}
RETURN label, n {.*, embedding: null, embed_lease_until: null} AS props
