// Sync: these nodes ($nodes: {label, key}) as they stand, with their outgoing relationships
// within the namespace: what a shared service fingerprints before and after a push, so a push
// that changes nothing is stamped with nothing (portability/federation/stamps.py). Each row goes
// through the one branch of its label, as in portability/merge_nodes.
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
RETURN collect({label: row.label, key: row.key, hash: n.sync_hash,
  props: n {.*, embedding: null, embed_lease_until: null},
  rels: [(n)-[r]->(b) WHERE b.ns = $ns AND type(r) <> 'NEXT' |
         {type: type(r), props: properties(r), to: [l IN labels(b) WHERE l <> 'EmbedPending'],
          key: coalesce(b.id, b.key, b.predicate)}]}) AS rows
