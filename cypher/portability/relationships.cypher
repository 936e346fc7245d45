// Every relationship between two nodes of a namespace, by the label it starts from (the
// labels of nodes.cypher): what `graphmem export` streams after the nodes. The NEXT chain is
// left to the import, which rebuilds it from the episodes' order; a pipeline job's links
// (:Job is queue state, not exported) are dropped by the caller. Each branch seeks its
// label's namespace index: planned while a label has few relationships, a branch scanned
// every relationship in the database.
CALL () {
  MATCH (a:Actor {ns: $ns})-[r]->(b) USING INDEX SEEK a:Actor(ns) WHERE b.ns = $ns RETURN 'Actor' AS label, a, r, b
  UNION ALL
  MATCH (a:Session {ns: $ns})-[r]->(b) USING INDEX SEEK a:Session(ns) WHERE b.ns = $ns RETURN 'Session' AS label, a, r, b
  UNION ALL
  MATCH (a:Entity {ns: $ns})-[r]->(b) USING INDEX SEEK a:Entity(ns) WHERE b.ns = $ns RETURN 'Entity' AS label, a, r, b
  UNION ALL
  MATCH (a:Value {ns: $ns})-[r]->(b) USING INDEX SEEK a:Value(ns) WHERE b.ns = $ns RETURN 'Value' AS label, a, r, b
  UNION ALL
  MATCH (a:Alias {ns: $ns})-[r]->(b) USING INDEX SEEK a:Alias(ns) WHERE b.ns = $ns RETURN 'Alias' AS label, a, r, b
  UNION ALL
  MATCH (a:Episode {ns: $ns})-[r]->(b) USING INDEX SEEK a:Episode(ns) WHERE b.ns = $ns RETURN 'Episode' AS label, a, r, b
  UNION ALL
  MATCH (a:DeviceTurn {ns: $ns})-[r]->(b) USING INDEX SEEK a:DeviceTurn(ns) WHERE b.ns = $ns RETURN 'DeviceTurn' AS label, a, r, b
  UNION ALL
  MATCH (a:Fact {ns: $ns})-[r]->(b) USING INDEX SEEK a:Fact(ns) WHERE b.ns = $ns RETURN 'Fact' AS label, a, r, b
  UNION ALL
  MATCH (a:Summary {ns: $ns})-[r]->(b) USING INDEX SEEK a:Summary(ns) WHERE b.ns = $ns RETURN 'Summary' AS label, a, r, b
  UNION ALL
  MATCH (a:Conflict {ns: $ns})-[r]->(b) USING INDEX SEEK a:Conflict(ns) WHERE b.ns = $ns RETURN 'Conflict' AS label, a, r, b
  UNION ALL
  MATCH (a:EntityMerge {ns: $ns})-[r]->(b) USING INDEX SEEK a:EntityMerge(ns) WHERE b.ns = $ns RETURN 'EntityMerge' AS label, a, r, b
  UNION ALL
  MATCH (a:PredicatePolicy {ns: $ns})-[r]->(b) USING INDEX SEEK a:PredicatePolicy(ns) WHERE b.ns = $ns RETURN 'PredicatePolicy' AS label, a, r, b
  UNION ALL
  MATCH (a:RetentionPolicy {ns: $ns})-[r]->(b) USING INDEX SEEK a:RetentionPolicy(ns) WHERE b.ns = $ns RETURN 'RetentionPolicy' AS label, a, r, b
  UNION ALL
  MATCH (a:PruningPolicy {ns: $ns})-[r]->(b) USING INDEX SEEK a:PruningPolicy(ns) WHERE b.ns = $ns RETURN 'PruningPolicy' AS label, a, r, b
  UNION ALL
  MATCH (a:PipelineSwitches {ns: $ns})-[r]->(b) USING INDEX SEEK a:PipelineSwitches(ns) WHERE b.ns = $ns RETURN 'PipelineSwitches' AS label, a, r, b
  UNION ALL
  MATCH (a:AuditEvent {ns: $ns})-[r]->(b) USING INDEX SEEK a:AuditEvent(ns) WHERE b.ns = $ns RETURN 'AuditEvent' AS label, a, r, b
}
WITH label, a, r, b WHERE type(r) <> 'NEXT'
RETURN label, a {.id, .key, .session_id, .predicate} AS source, type(r) AS type,
       properties(r) AS props, [l IN labels(b) WHERE l <> 'EmbedPending'] AS target_labels,
       b {.id, .key, .session_id, .predicate} AS target
