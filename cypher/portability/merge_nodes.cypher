// Import: a chunk of nodes ($nodes: {label, key, props, embed}) into the namespace, each
// found by its label's identity (graphmem/portability/format.py LABELS) or made, and given
// the file's properties: a second import of the same file changes nothing. Each row goes
// through the one branch of its label (the UNWIND of an empty list stops the others before
// they touch an index). What the worker embeds waits for it again (embeddings are not in
// the file).
UNWIND $nodes AS row
CALL (row) {
  UNWIND CASE row.label WHEN 'Actor' THEN [row] ELSE [] END AS r
  MERGE (n:Actor {ns: $ns, key: r.key}) SET n += r.props RETURN n
  UNION ALL
  UNWIND CASE row.label WHEN 'Session' THEN [row] ELSE [] END AS r
  MERGE (n:Session {ns: $ns, session_id: r.key}) SET n += r.props RETURN n
  UNION ALL
  UNWIND CASE row.label WHEN 'Entity' THEN [row] ELSE [] END AS r
  MERGE (n:Entity {ns: $ns, id: r.key}) SET n += r.props, n.ns_key = $ns_key RETURN n
  UNION ALL
  UNWIND CASE row.label WHEN 'Value' THEN [row] ELSE [] END AS r
  MERGE (n:Value {ns: $ns, id: r.key}) SET n += r.props RETURN n
  UNION ALL
  UNWIND CASE row.label WHEN 'Alias' THEN [row] ELSE [] END AS r
  MERGE (n:Alias {ns: $ns, key: r.key}) SET n += r.props, n.ns_key = $ns_key RETURN n
  UNION ALL
  UNWIND CASE row.label WHEN 'Episode' THEN [row] ELSE [] END AS r
  MERGE (n:Episode {ns: $ns, id: r.key}) SET n += r.props, n.ns_key = $ns_key RETURN n
  UNION ALL
  UNWIND CASE row.label WHEN 'DeviceTurn' THEN [row] ELSE [] END AS r
  MERGE (n:DeviceTurn {ns: $ns, id: r.key}) SET n += r.props RETURN n
  UNION ALL
  UNWIND CASE row.label WHEN 'Fact' THEN [row] ELSE [] END AS r
  MERGE (n:Fact {ns: $ns, id: r.key}) SET n += r.props, n.ns_key = $ns_key RETURN n
  UNION ALL
  UNWIND CASE row.label WHEN 'Summary' THEN [row] ELSE [] END AS r
  MERGE (n:Summary {ns: $ns, id: r.key}) SET n += r.props, n.ns_key = $ns_key RETURN n
  UNION ALL
  UNWIND CASE row.label WHEN 'Conflict' THEN [row] ELSE [] END AS r
  MERGE (n:Conflict {ns: $ns, id: r.key}) SET n += r.props RETURN n
  UNION ALL
  UNWIND CASE row.label WHEN 'EntityMerge' THEN [row] ELSE [] END AS r
  MERGE (n:EntityMerge {ns: $ns, id: r.key}) SET n += r.props RETURN n
  UNION ALL
  UNWIND CASE row.label WHEN 'PredicatePolicy' THEN [row] ELSE [] END AS r
  MERGE (n:PredicatePolicy {ns: $ns, predicate: r.key}) SET n += r.props RETURN n
  UNION ALL
  UNWIND CASE row.label WHEN 'RetentionPolicy' THEN [row] ELSE [] END AS r
  MERGE (n:RetentionPolicy {ns: $ns, key: r.key}) SET n += r.props RETURN n
  UNION ALL
  UNWIND CASE row.label WHEN 'PruningPolicy' THEN [row] ELSE [] END AS r
  MERGE (n:PruningPolicy {ns: $ns}) SET n += r.props RETURN n
  UNION ALL
  UNWIND CASE row.label WHEN 'PipelineSwitches' THEN [row] ELSE [] END AS r
  MERGE (n:PipelineSwitches {ns: $ns}) SET n += r.props RETURN n
  UNION ALL
  UNWIND CASE row.label WHEN 'AuditEvent' THEN [row] ELSE [] END AS r
  MERGE (n:AuditEvent {ns: $ns, id: r.key}) SET n += r.props RETURN n
}
WITH n, row
CALL (n, row) {
  WITH n WHERE row.embed AND n.embedding IS NULL
  SET n:EmbedPending
}
RETURN count(n) AS nodes
