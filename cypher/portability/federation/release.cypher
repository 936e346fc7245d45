// Sync, on a device: a sync that ended (done or failed) gives up its claim on the namespace.
MATCH (s:SyncState {ns: $ns, peer: $peer})
WHERE s.sync_holder = $holder
REMOVE s.sync_holder, s.sync_until
RETURN count(s) AS released
