// Import, before anything is written: which of these nodes ($nodes: {line, label, key}, of
// the labels whose id is service-wide unique) another namespace holds under that id. Only
// the lines come back, never what the other namespace holds; the import refuses the file
// rather than fail half-way on the uniqueness constraint.
UNWIND $nodes AS row
CALL (row) {
  UNWIND CASE row.label WHEN 'Entity' THEN [row] ELSE [] END AS r
  MATCH (n:Entity {id: r.key}) USING INDEX SEEK n:Entity(id) WHERE n.ns <> $ns RETURN r.line AS line
  UNION ALL
  UNWIND CASE row.label WHEN 'Value' THEN [row] ELSE [] END AS r
  MATCH (n:Value {id: r.key}) USING INDEX SEEK n:Value(id) WHERE n.ns <> $ns RETURN r.line AS line
  UNION ALL
  UNWIND CASE row.label WHEN 'Episode' THEN [row] ELSE [] END AS r
  MATCH (n:Episode {id: r.key}) USING INDEX SEEK n:Episode(id) WHERE n.ns <> $ns RETURN r.line AS line
  UNION ALL
  UNWIND CASE row.label WHEN 'DeviceTurn' THEN [row] ELSE [] END AS r
  MATCH (n:DeviceTurn {id: r.key}) USING INDEX SEEK n:DeviceTurn(id) WHERE n.ns <> $ns RETURN r.line AS line
  UNION ALL
  UNWIND CASE row.label WHEN 'Fact' THEN [row] ELSE [] END AS r
  MATCH (n:Fact {id: r.key}) USING INDEX SEEK n:Fact(id) WHERE n.ns <> $ns RETURN r.line AS line
  UNION ALL
  UNWIND CASE row.label WHEN 'Summary' THEN [row] ELSE [] END AS r
  MATCH (n:Summary {id: r.key}) USING INDEX SEEK n:Summary(id) WHERE n.ns <> $ns RETURN r.line AS line
  UNION ALL
  UNWIND CASE row.label WHEN 'Conflict' THEN [row] ELSE [] END AS r
  MATCH (n:Conflict {id: r.key}) USING INDEX SEEK n:Conflict(id) WHERE n.ns <> $ns RETURN r.line AS line
  UNION ALL
  UNWIND CASE row.label WHEN 'EntityMerge' THEN [row] ELSE [] END AS r
  MATCH (n:EntityMerge {id: r.key}) USING INDEX SEEK n:EntityMerge(id) WHERE n.ns <> $ns RETURN r.line AS line
  UNION ALL
  UNWIND CASE row.label WHEN 'AuditEvent' THEN [row] ELSE [] END AS r
  MATCH (n:AuditEvent {id: r.key}) USING INDEX SEEK n:AuditEvent(id) WHERE n.ns <> $ns RETURN r.line AS line
}
RETURN collect(DISTINCT line) AS lines
