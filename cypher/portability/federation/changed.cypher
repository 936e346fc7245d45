// Sync, a pull: the namespace's nodes that pushes (or the shared side's own resolution) changed
// after the cursor ($after_seq, $after_label, $after_key) up to $upto (the namespace's last
// push when the pull began), in (push, label, key) order, except what $device's own pushes
// left as it sent it. Each comes with its outgoing relationships to what syncs, and the
// nodes they end at (a page is read on its own: its entities by name, its turns by id).
CALL () {
  MATCH (n:Entity {ns: $ns}) USING INDEX SEEK n:Entity(ns, sync_seq)
  WHERE n.sync_seq >= $after_seq AND n.sync_seq <= $upto
  RETURN 'Entity' AS label, n.id AS key, n
  UNION ALL
  MATCH (n:Value {ns: $ns}) USING INDEX SEEK n:Value(ns, sync_seq)
  WHERE n.sync_seq >= $after_seq AND n.sync_seq <= $upto
  RETURN 'Value' AS label, n.id AS key, n
  UNION ALL
  MATCH (n:Alias {ns: $ns}) USING INDEX SEEK n:Alias(ns, sync_seq)
  WHERE n.sync_seq >= $after_seq AND n.sync_seq <= $upto
  RETURN 'Alias' AS label, n.key AS key, n
  UNION ALL
  MATCH (n:DeviceTurn {ns: $ns}) USING INDEX SEEK n:DeviceTurn(ns, sync_seq)
  WHERE n.sync_seq >= $after_seq AND n.sync_seq <= $upto
  RETURN 'DeviceTurn' AS label, n.id AS key, n
  UNION ALL
  MATCH (n:Fact {ns: $ns}) USING INDEX SEEK n:Fact(ns, sync_seq)
  WHERE n.sync_seq >= $after_seq AND n.sync_seq <= $upto
  RETURN 'Fact' AS label, n.id AS key, n
  UNION ALL
  MATCH (n:Summary {ns: $ns}) USING INDEX SEEK n:Summary(ns, sync_seq)
  WHERE n.sync_seq >= $after_seq AND n.sync_seq <= $upto
  RETURN 'Summary' AS label, n.id AS key, n
  UNION ALL
  MATCH (n:Conflict {ns: $ns}) USING INDEX SEEK n:Conflict(ns, sync_seq)
  WHERE n.sync_seq >= $after_seq AND n.sync_seq <= $upto
  RETURN 'Conflict' AS label, n.id AS key, n
  UNION ALL
  MATCH (n:PredicatePolicy {ns: $ns}) USING INDEX SEEK n:PredicatePolicy(ns, sync_seq)
  WHERE n.sync_seq >= $after_seq AND n.sync_seq <= $upto
  RETURN 'PredicatePolicy' AS label, n.predicate AS key, n
}
WITH label, key, n
WHERE coalesce(n.sync_device, '') <> $device
  AND (n.sync_seq > $after_seq OR label > $after_label
       OR (label = $after_label AND key > $after_key))
WITH label, key, n ORDER BY n.sync_seq, label, key LIMIT $limit
RETURN collect({label: label, seq: n.sync_seq,
  props: n {.*, embedding: null, embed_lease_until: null},
  rels: [(n)-[r]->(b) WHERE b.ns = $ns AND type(r) <> 'NEXT'
         AND any(l IN labels(b) WHERE l IN $labels) |
         {type: type(r), props: properties(r),
          to: head([l IN labels(b) WHERE l IN $labels]),
          end: b {.*, embedding: null, embed_lease_until: null}}]}) AS rows
