// Sync: where this namespace's syncing stands with a peer ($peer: the shared service's URL
// digest on a device, '*' on the shared service itself): the last push's sequence number a
// device pulled up to, or the shared side's last sequence number.
OPTIONAL MATCH (s:SyncState {ns: $ns, peer: $peer})
RETURN coalesce(s.seq, 0) AS seq, s.pulled_key AS pulled_key, s.pulled_label AS pulled_label
