// Import: a chunk of relationships ($rels: {type, from_label, from_key, to_label, to_key,
// props}) between nodes already imported, each found by label and identity. A relationship
// is made once per type between two nodes, but a predicate edge once per fact (two versions
// of one fact join the same entities): a second import of the same file changes nothing.
// Types pass the identifier check first (graphmem/portability/format.py).
UNWIND $rels AS row
CALL (row) {
    WITH row WHERE row.from_label = 'Actor' MATCH (n:Actor {ns: $ns, key: row.from_key}) RETURN n AS a
    UNION ALL
    WITH row WHERE row.from_label = 'Session' MATCH (n:Session {ns: $ns, session_id: row.from_key}) RETURN n AS a
    UNION ALL
    WITH row WHERE row.from_label = 'Entity' MATCH (n:Entity {ns: $ns, id: row.from_key}) RETURN n AS a
    UNION ALL
    WITH row WHERE row.from_label = 'Value' MATCH (n:Value {ns: $ns, id: row.from_key}) RETURN n AS a
    UNION ALL
    WITH row WHERE row.from_label = 'Alias' MATCH (n:Alias {ns: $ns, key: row.from_key}) RETURN n AS a
    UNION ALL
    WITH row WHERE row.from_label = 'Episode' MATCH (n:Episode {ns: $ns, id: row.from_key}) RETURN n AS a
    UNION ALL
    WITH row WHERE row.from_label = 'Fact' MATCH (n:Fact {ns: $ns, id: row.from_key}) RETURN n AS a
    UNION ALL
    WITH row WHERE row.from_label = 'Summary' MATCH (n:Summary {ns: $ns, id: row.from_key}) RETURN n AS a
    UNION ALL
    WITH row WHERE row.from_label = 'Conflict' MATCH (n:Conflict {ns: $ns, id: row.from_key}) RETURN n AS a
    UNION ALL
    WITH row WHERE row.from_label = 'EntityMerge' MATCH (n:EntityMerge {ns: $ns, id: row.from_key}) RETURN n AS a
    UNION ALL
    WITH row WHERE row.from_label = 'PredicatePolicy' MATCH (n:PredicatePolicy {ns: $ns, predicate: row.from_key}) RETURN n AS a
    UNION ALL
    WITH row WHERE row.from_label = 'RetentionPolicy' MATCH (n:RetentionPolicy {ns: $ns, key: row.from_key}) RETURN n AS a
    UNION ALL
    WITH row WHERE row.from_label = 'PipelineSwitches' MATCH (n:PipelineSwitches {ns: $ns}) RETURN n AS a
    UNION ALL
    WITH row WHERE row.from_label = 'AuditEvent' MATCH (n:AuditEvent {ns: $ns, id: row.from_key}) RETURN n AS a
}
CALL (row) {
    WITH row WHERE row.to_label = 'Actor' MATCH (n:Actor {ns: $ns, key: row.to_key}) RETURN n AS b
    UNION ALL
    WITH row WHERE row.to_label = 'Session' MATCH (n:Session {ns: $ns, session_id: row.to_key}) RETURN n AS b
    UNION ALL
    WITH row WHERE row.to_label = 'Entity' MATCH (n:Entity {ns: $ns, id: row.to_key}) RETURN n AS b
    UNION ALL
    WITH row WHERE row.to_label = 'Value' MATCH (n:Value {ns: $ns, id: row.to_key}) RETURN n AS b
    UNION ALL
    WITH row WHERE row.to_label = 'Alias' MATCH (n:Alias {ns: $ns, key: row.to_key}) RETURN n AS b
    UNION ALL
    WITH row WHERE row.to_label = 'Episode' MATCH (n:Episode {ns: $ns, id: row.to_key}) RETURN n AS b
    UNION ALL
    WITH row WHERE row.to_label = 'Fact' MATCH (n:Fact {ns: $ns, id: row.to_key}) RETURN n AS b
    UNION ALL
    WITH row WHERE row.to_label = 'Summary' MATCH (n:Summary {ns: $ns, id: row.to_key}) RETURN n AS b
    UNION ALL
    WITH row WHERE row.to_label = 'Conflict' MATCH (n:Conflict {ns: $ns, id: row.to_key}) RETURN n AS b
    UNION ALL
    WITH row WHERE row.to_label = 'EntityMerge' MATCH (n:EntityMerge {ns: $ns, id: row.to_key}) RETURN n AS b
    UNION ALL
    WITH row WHERE row.to_label = 'PredicatePolicy' MATCH (n:PredicatePolicy {ns: $ns, predicate: row.to_key}) RETURN n AS b
    UNION ALL
    WITH row WHERE row.to_label = 'RetentionPolicy' MATCH (n:RetentionPolicy {ns: $ns, key: row.to_key}) RETURN n AS b
    UNION ALL
    WITH row WHERE row.to_label = 'PipelineSwitches' MATCH (n:PipelineSwitches {ns: $ns}) RETURN n AS b
    UNION ALL
    WITH row WHERE row.to_label = 'AuditEvent' MATCH (n:AuditEvent {ns: $ns, id: row.to_key}) RETURN n AS b
}
CALL (row, a, b) {
  WITH row, a, b WHERE row.props.fact_id IS NULL
  MERGE (a)-[r:$(row.type)]->(b) SET r += row.props
  RETURN r
  UNION ALL
  WITH row, a, b WHERE row.props.fact_id IS NOT NULL
  MERGE (a)-[r:$(row.type) {fact_id: row.props.fact_id}]->(b) SET r += row.props
  RETURN r
}
RETURN collect({line: row.line}) AS rows
