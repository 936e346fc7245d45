// Import: a chunk of nodes ($nodes: {label, key, props, embed}) into the namespace, each
// found by its label's identity (graphmem/portability/format.py LABELS) or made, and given
// the file's properties: a second import of the same file changes nothing. What the worker
// embeds waits for it again (embeddings are not in the file).
UNWIND $nodes AS row
CALL (row) {
  WITH row WHERE row.label = 'Actor'
  MERGE (n:Actor {ns: $ns, key: row.key}) SET n += row.props RETURN n
  UNION ALL
  WITH row WHERE row.label = 'Session'
  MERGE (n:Session {ns: $ns, session_id: row.key}) SET n += row.props RETURN n
  UNION ALL
  WITH row WHERE row.label = 'Entity'
  MERGE (n:Entity {ns: $ns, id: row.key}) SET n += row.props, n.ns_key = $ns_key RETURN n
  UNION ALL
  WITH row WHERE row.label = 'Value'
  MERGE (n:Value {ns: $ns, id: row.key}) SET n += row.props RETURN n
  UNION ALL
  WITH row WHERE row.label = 'Alias'
  MERGE (n:Alias {ns: $ns, key: row.key}) SET n += row.props, n.ns_key = $ns_key RETURN n
  UNION ALL
  WITH row WHERE row.label = 'Episode'
  MERGE (n:Episode {ns: $ns, id: row.key}) SET n += row.props, n.ns_key = $ns_key RETURN n
  UNION ALL
  WITH row WHERE row.label = 'Fact'
  MERGE (n:Fact {ns: $ns, id: row.key}) SET n += row.props, n.ns_key = $ns_key RETURN n
  UNION ALL
  WITH row WHERE row.label = 'Summary'
  MERGE (n:Summary {ns: $ns, id: row.key}) SET n += row.props, n.ns_key = $ns_key RETURN n
  UNION ALL
  WITH row WHERE row.label = 'Conflict'
  MERGE (n:Conflict {ns: $ns, id: row.key}) SET n += row.props RETURN n
  UNION ALL
  WITH row WHERE row.label = 'EntityMerge'
  MERGE (n:EntityMerge {ns: $ns, id: row.key}) SET n += row.props RETURN n
  UNION ALL
  WITH row WHERE row.label = 'PredicatePolicy'
  MERGE (n:PredicatePolicy {ns: $ns, predicate: row.key}) SET n += row.props RETURN n
  UNION ALL
  WITH row WHERE row.label = 'RetentionPolicy'
  MERGE (n:RetentionPolicy {ns: $ns, key: row.key}) SET n += row.props RETURN n
  UNION ALL
  WITH row WHERE row.label = 'PipelineSwitches'
  MERGE (n:PipelineSwitches {ns: $ns}) SET n += row.props RETURN n
  UNION ALL
  WITH row WHERE row.label = 'AuditEvent'
  MERGE (n:AuditEvent {ns: $ns, id: row.key}) SET n += row.props RETURN n
}
WITH n, row
CALL (n, row) {
  WITH n WHERE row.embed AND n.embedding IS NULL
  SET n:EmbedPending
}
RETURN count(n) AS nodes
