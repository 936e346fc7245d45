// Sync, a pull: the tombstones stamped after the cursor's sequence number up to $upto
// (kind and id: what a device erases in turn).
MATCH (t:SyncErased {ns: $ns}) USING INDEX SEEK t:SyncErased(ns, sync_seq)
WHERE t.sync_seq > $after_seq AND t.sync_seq <= $upto
WITH t ORDER BY t.sync_seq, t.id LIMIT $limit
RETURN collect({id: t.id, kind: t.kind}) AS rows
