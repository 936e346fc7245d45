// Sync, on a device: the shared side took a push; what the namespace holds now (names and
// digests, in two lists of one length) is what the next push compares against.
MERGE (s:SyncState {ns: $ns, peer: $peer})
SET s.pushed_names = $names, s.pushed_digests = $digests, s.pushed_at = $now
RETURN count(s) AS acknowledged
