// Import: a chunk of relationships ($rels: {line, type, from_label, from_key, to_label,
// to_key, props}) between nodes already imported, each found by label and identity (through
// the one branch of its label, as in merge_nodes). A relationship is made once per type
// between two nodes, but a predicate edge once per fact (two versions of one fact join the
// same entities): a second import of the same file changes nothing. Types pass the format's
// identifier check first (graphmem/portability/format.py). Returns the lines it made, so a
// relationship whose node is missing is named.
UNWIND $rels AS row
CALL (row) {
    UNWIND CASE row.from_label WHEN 'Actor' THEN [row.from_key] ELSE [] END AS key
    MATCH (n:Actor {ns: $ns, key: key}) USING INDEX SEEK n:Actor(ns, key) RETURN n AS a
    UNION ALL
    UNWIND CASE row.from_label WHEN 'Session' THEN [row.from_key] ELSE [] END AS key
    MATCH (n:Session {ns: $ns, session_id: key}) USING INDEX SEEK n:Session(ns, session_id) RETURN n AS a
    UNION ALL
    UNWIND CASE row.from_label WHEN 'Entity' THEN [row.from_key] ELSE [] END AS key
    MATCH (n:Entity {ns: $ns, id: key}) USING INDEX SEEK n:Entity(id) RETURN n AS a
    UNION ALL
    UNWIND CASE row.from_label WHEN 'Value' THEN [row.from_key] ELSE [] END AS key
    MATCH (n:Value {ns: $ns, id: key}) USING INDEX SEEK n:Value(id) RETURN n AS a
    UNION ALL
    UNWIND CASE row.from_label WHEN 'Alias' THEN [row.from_key] ELSE [] END AS key
    MATCH (n:Alias {ns: $ns, key: key}) USING INDEX SEEK n:Alias(ns, key) RETURN n AS a
    UNION ALL
    UNWIND CASE row.from_label WHEN 'Episode' THEN [row.from_key] ELSE [] END AS key
    MATCH (n:Episode {ns: $ns, id: key}) USING INDEX SEEK n:Episode(id) RETURN n AS a
    UNION ALL
    UNWIND CASE row.from_label WHEN 'DeviceTurn' THEN [row.from_key] ELSE [] END AS key
    MATCH (n:DeviceTurn {ns: $ns, id: key}) USING INDEX SEEK n:DeviceTurn(id) RETURN n AS a
    UNION ALL
    UNWIND CASE row.from_label WHEN 'Fact' THEN [row.from_key] ELSE [] END AS key
    MATCH (n:Fact {ns: $ns, id: key}) USING INDEX SEEK n:Fact(id) RETURN n AS a
    UNION ALL
    UNWIND CASE row.from_label WHEN 'Summary' THEN [row.from_key] ELSE [] END AS key
    MATCH (n:Summary {ns: $ns, id: key}) USING INDEX SEEK n:Summary(id) RETURN n AS a
    UNION ALL
    UNWIND CASE row.from_label WHEN 'Conflict' THEN [row.from_key] ELSE [] END AS key
    MATCH (n:Conflict {ns: $ns, id: key}) USING INDEX SEEK n:Conflict(id) RETURN n AS a
    UNION ALL
    UNWIND CASE row.from_label WHEN 'EntityMerge' THEN [row.from_key] ELSE [] END AS key
    MATCH (n:EntityMerge {ns: $ns, id: key}) USING INDEX SEEK n:EntityMerge(id) RETURN n AS a
    UNION ALL
    UNWIND CASE row.from_label WHEN 'PredicatePolicy' THEN [row.from_key] ELSE [] END AS key
    MATCH (n:PredicatePolicy {ns: $ns, predicate: key}) USING INDEX SEEK n:PredicatePolicy(ns, predicate) RETURN n AS a
    UNION ALL
    UNWIND CASE row.from_label WHEN 'RetentionPolicy' THEN [row.from_key] ELSE [] END AS key
    MATCH (n:RetentionPolicy {ns: $ns, key: key}) USING INDEX SEEK n:RetentionPolicy(ns, key) RETURN n AS a
    UNION ALL
    UNWIND CASE row.from_label WHEN 'PipelineSwitches' THEN [row.from_key] ELSE [] END AS key
    MATCH (n:PipelineSwitches {ns: $ns}) RETURN n AS a
    UNION ALL
    UNWIND CASE row.from_label WHEN 'AuditEvent' THEN [row.from_key] ELSE [] END AS key
    MATCH (n:AuditEvent {ns: $ns, id: key}) USING INDEX SEEK n:AuditEvent(id) RETURN n AS a
}
CALL (row) {
    UNWIND CASE row.to_label WHEN 'Actor' THEN [row.to_key] ELSE [] END AS key
    MATCH (n:Actor {ns: $ns, key: key}) USING INDEX SEEK n:Actor(ns, key) RETURN n AS b
    UNION ALL
    UNWIND CASE row.to_label WHEN 'Session' THEN [row.to_key] ELSE [] END AS key
    MATCH (n:Session {ns: $ns, session_id: key}) USING INDEX SEEK n:Session(ns, session_id) RETURN n AS b
    UNION ALL
    UNWIND CASE row.to_label WHEN 'Entity' THEN [row.to_key] ELSE [] END AS key
    MATCH (n:Entity {ns: $ns, id: key}) USING INDEX SEEK n:Entity(id) RETURN n AS b
    UNION ALL
    UNWIND CASE row.to_label WHEN 'Value' THEN [row.to_key] ELSE [] END AS key
    MATCH (n:Value {ns: $ns, id: key}) USING INDEX SEEK n:Value(id) RETURN n AS b
    UNION ALL
    UNWIND CASE row.to_label WHEN 'Alias' THEN [row.to_key] ELSE [] END AS key
    MATCH (n:Alias {ns: $ns, key: key}) USING INDEX SEEK n:Alias(ns, key) RETURN n AS b
    UNION ALL
    UNWIND CASE row.to_label WHEN 'Episode' THEN [row.to_key] ELSE [] END AS key
    MATCH (n:Episode {ns: $ns, id: key}) USING INDEX SEEK n:Episode(id) RETURN n AS b
    UNION ALL
    UNWIND CASE row.to_label WHEN 'DeviceTurn' THEN [row.to_key] ELSE [] END AS key
    MATCH (n:DeviceTurn {ns: $ns, id: key}) USING INDEX SEEK n:DeviceTurn(id) RETURN n AS b
    UNION ALL
    UNWIND CASE row.to_label WHEN 'Fact' THEN [row.to_key] ELSE [] END AS key
    MATCH (n:Fact {ns: $ns, id: key}) USING INDEX SEEK n:Fact(id) RETURN n AS b
    UNION ALL
    UNWIND CASE row.to_label WHEN 'Summary' THEN [row.to_key] ELSE [] END AS key
    MATCH (n:Summary {ns: $ns, id: key}) USING INDEX SEEK n:Summary(id) RETURN n AS b
    UNION ALL
    UNWIND CASE row.to_label WHEN 'Conflict' THEN [row.to_key] ELSE [] END AS key
    MATCH (n:Conflict {ns: $ns, id: key}) USING INDEX SEEK n:Conflict(id) RETURN n AS b
    UNION ALL
    UNWIND CASE row.to_label WHEN 'EntityMerge' THEN [row.to_key] ELSE [] END AS key
    MATCH (n:EntityMerge {ns: $ns, id: key}) USING INDEX SEEK n:EntityMerge(id) RETURN n AS b
    UNION ALL
    UNWIND CASE row.to_label WHEN 'PredicatePolicy' THEN [row.to_key] ELSE [] END AS key
    MATCH (n:PredicatePolicy {ns: $ns, predicate: key}) USING INDEX SEEK n:PredicatePolicy(ns, predicate) RETURN n AS b
    UNION ALL
    UNWIND CASE row.to_label WHEN 'RetentionPolicy' THEN [row.to_key] ELSE [] END AS key
    MATCH (n:RetentionPolicy {ns: $ns, key: key}) USING INDEX SEEK n:RetentionPolicy(ns, key) RETURN n AS b
    UNION ALL
    UNWIND CASE row.to_label WHEN 'PipelineSwitches' THEN [row.to_key] ELSE [] END AS key
    MATCH (n:PipelineSwitches {ns: $ns}) RETURN n AS b
    UNION ALL
    UNWIND CASE row.to_label WHEN 'AuditEvent' THEN [row.to_key] ELSE [] END AS key
    MATCH (n:AuditEvent {ns: $ns, id: key}) USING INDEX SEEK n:AuditEvent(id) RETURN n AS b
}
// MERGE with a dynamic type is planned as a scan of every relationship, so the pair is
// locked (two imports of one file cannot both create), looked at from its two ends, then
// written.
CALL (row, a, b) {
  SET a._lock = true, b._lock = true
  REMOVE a._lock, b._lock
  WITH row, a, b
  WITH row, a, b, head([(a)-[existing]->(b) WHERE type(existing) = row.type
    AND (row.props.fact_id IS NULL OR existing.fact_id = row.props.fact_id) | existing])
    AS found
  CALL (row, a, b, found) {
    WITH row, a, b, found WHERE found IS NULL
    CREATE (a)-[r:$(row.type)]->(b)
    SET r = row.props
  }
  CALL (row, found) {
    WITH row, found WHERE found IS NOT NULL
    SET found += row.props
  }
  RETURN row.line AS line
}
RETURN collect({line: line}) AS rows
