// Sync, on a device: take (or renew) the right to sync this namespace with a peer until
// $until, unless another holder's claim has not run out: no two syncs of one namespace at
// once, in one process or in several (`graphmem sync` beside a service's background sync).
// The SET comes first: it takes the node's write lock, so two claims queue and the second
// reads the holder the first wrote.
MERGE (s:SyncState {ns: $ns, peer: $peer})
SET s.claimed_at = $now
WITH s, (s.sync_holder IS NULL OR s.sync_until < $now OR s.sync_holder = $holder) AS free
FOREACH (_ IN CASE WHEN free THEN [1] ELSE [] END |
  SET s.sync_holder = $holder, s.sync_until = $until)
RETURN free, s.sync_until AS until
