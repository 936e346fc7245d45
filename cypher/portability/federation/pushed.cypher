// Sync, on a device: what its last acknowledged push to a peer held (each node's name and
// the digest of its record with its outgoing relationships): the next push sends only what
// moved since.
OPTIONAL MATCH (s:SyncState {ns: $ns, peer: $peer})
RETURN coalesce(s.pushed_names, []) AS names, coalesce(s.pushed_digests, []) AS digests
