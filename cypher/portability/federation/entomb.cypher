// Sync: what a shared service erased because a device erased the turns behind it, as
// tombstones (kind and id, nothing else) stamped with the erasure's sequence number: the
// devices' pulls hand them out, and a push never brings them back.
UNWIND $erased AS e
MERGE (t:SyncErased {ns: $ns, id: e.id})
SET t.kind = e.kind, t.sync_seq = $seq, t.at = $now
RETURN count(t) AS entombed
