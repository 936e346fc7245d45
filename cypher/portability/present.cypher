// Import, before anything is written: which of these nodes ($ends: {line, label, key}) the
// namespace holds already (a relationship of the file may join one the file does not name).
// Each row goes through the one branch of its label, as in merge_relationships.
UNWIND $ends AS row
CALL (row) {
  UNWIND CASE row.label WHEN 'Actor' THEN [row] ELSE [] END AS r
  MATCH (n:Actor {ns: $ns, key: r.key}) USING INDEX SEEK n:Actor(ns, key) RETURN r.line AS line
  UNION ALL
  UNWIND CASE row.label WHEN 'Session' THEN [row] ELSE [] END AS r
  MATCH (n:Session {ns: $ns, session_id: r.key}) USING INDEX SEEK n:Session(ns, session_id) RETURN r.line AS line
  UNION ALL
  UNWIND CASE row.label WHEN 'Entity' THEN [row] ELSE [] END AS r
  MATCH (n:Entity {ns: $ns, id: r.key}) USING INDEX SEEK n:Entity(id) RETURN r.line AS line
  UNION ALL
  UNWIND CASE row.label WHEN 'Value' THEN [row] ELSE [] END AS r
  MATCH (n:Value {ns: $ns, id: r.key}) USING INDEX SEEK n:Value(id) RETURN r.line AS line
  UNION ALL
  UNWIND CASE row.label WHEN 'Alias' THEN [row] ELSE [] END AS r
  MATCH (n:Alias {ns: $ns, key: r.key}) USING INDEX SEEK n:Alias(ns, key) RETURN r.line AS line
  UNION ALL
  UNWIND CASE row.label WHEN 'Episode' THEN [row] ELSE [] END AS r
  MATCH (n:Episode {ns: $ns, id: r.key}) USING INDEX SEEK n:Episode(id) RETURN r.line AS line
  UNION ALL
  UNWIND CASE row.label WHEN 'DeviceTurn' THEN [row] ELSE [] END AS r
  MATCH (n:DeviceTurn {ns: $ns, id: r.key}) USING INDEX SEEK n:DeviceTurn(id) RETURN r.line AS line
  UNION ALL
  UNWIND CASE row.label WHEN 'Fact' THEN [row] ELSE [] END AS r
  MATCH (n:Fact {ns: $ns, id: r.key}) USING INDEX SEEK n:Fact(id) RETURN r.line AS line
  UNION ALL
  UNWIND CASE row.label WHEN 'Summary' THEN [row] ELSE [] END AS r
  MATCH (n:Summary {ns: $ns, id: r.key}) USING INDEX SEEK n:Summary(id) RETURN r.line AS line
  UNION ALL
  UNWIND CASE row.label WHEN 'Conflict' THEN [row] ELSE [] END AS r
  MATCH (n:Conflict {ns: $ns, id: r.key}) USING INDEX SEEK n:Conflict(id) RETURN r.line AS line
  UNION ALL
  UNWIND CASE row.label WHEN 'EntityMerge' THEN [row] ELSE [] END AS r
  MATCH (n:EntityMerge {ns: $ns, id: r.key}) USING INDEX SEEK n:EntityMerge(id) RETURN r.line AS line
  UNION ALL
  UNWIND CASE row.label WHEN 'PredicatePolicy' THEN [row] ELSE [] END AS r
  MATCH (n:PredicatePolicy {ns: $ns, predicate: r.key}) USING INDEX SEEK n:PredicatePolicy(ns, predicate) RETURN r.line AS line
  UNION ALL
  UNWIND CASE row.label WHEN 'RetentionPolicy' THEN [row] ELSE [] END AS r
  MATCH (n:RetentionPolicy {ns: $ns, key: r.key}) USING INDEX SEEK n:RetentionPolicy(ns, key) RETURN r.line AS line
  UNION ALL
  UNWIND CASE row.label WHEN 'PruningPolicy' THEN [row] ELSE [] END AS r
  MATCH (n:PruningPolicy {ns: $ns}) RETURN r.line AS line
  UNION ALL
  UNWIND CASE row.label WHEN 'PipelineSwitches' THEN [row] ELSE [] END AS r
  MATCH (n:PipelineSwitches {ns: $ns}) RETURN r.line AS line
  UNION ALL
  UNWIND CASE row.label WHEN 'AuditEvent' THEN [row] ELSE [] END AS r
  MATCH (n:AuditEvent {ns: $ns, id: r.key}) USING INDEX SEEK n:AuditEvent(id) RETURN r.line AS line
}
RETURN collect(DISTINCT line) AS lines
