// Sync: the nodes a push changed ($nodes: {label, key, hash, device}), stamped with the push's
// sequence number (what a pull pages by), the device whose push left them as they are (null
// when the shared side changed them itself: everyone pulls those) and their fingerprint.
UNWIND $nodes AS row
CALL (row) {
  UNWIND CASE row.label WHEN 'Entity' THEN [row.key] ELSE [] END AS key
  MATCH (n:Entity {ns: $ns, id: key}) USING INDEX SEEK n:Entity(id) RETURN n
  UNION ALL
  UNWIND CASE row.label WHEN 'Value' THEN [row.key] ELSE [] END AS key
  MATCH (n:Value {ns: $ns, id: key}) USING INDEX SEEK n:Value(id) RETURN n
  UNION ALL
  UNWIND CASE row.label WHEN 'Alias' THEN [row.key] ELSE [] END AS key
  MATCH (n:Alias {ns: $ns, key: key}) USING INDEX SEEK n:Alias(ns, key) RETURN n
  UNION ALL
  UNWIND CASE row.label WHEN 'DeviceTurn' THEN [row.key] ELSE [] END AS key
  MATCH (n:DeviceTurn {ns: $ns, id: key}) USING INDEX SEEK n:DeviceTurn(id) RETURN n
  UNION ALL
  UNWIND CASE row.label WHEN 'Fact' THEN [row.key] ELSE [] END AS key
  MATCH (n:Fact {ns: $ns, id: key}) USING INDEX SEEK n:Fact(id) RETURN n
  UNION ALL
  UNWIND CASE row.label WHEN 'Summary' THEN [row.key] ELSE [] END AS key
  MATCH (n:Summary {ns: $ns, id: key}) USING INDEX SEEK n:Summary(id) RETURN n
  UNION ALL
  UNWIND CASE row.label WHEN 'Conflict' THEN [row.key] ELSE [] END AS key
  MATCH (n:Conflict {ns: $ns, id: key}) USING INDEX SEEK n:Conflict(id) RETURN n
  UNION ALL
  UNWIND CASE row.label WHEN 'PredicatePolicy' THEN [row.key] ELSE [] END AS key
  MATCH (n:PredicatePolicy {ns: $ns, predicate: key}) USING INDEX SEEK n:PredicatePolicy(ns, predicate) RETURN n
}
SET n.sync_seq = $seq, n.sync_device = row.device, n.sync_hash = row.hash
RETURN count(n) AS stamped
