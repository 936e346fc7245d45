// Sync: move this namespace's sync state with a peer on, in the transaction of what it
// records (a pull's page, a push's stamps), so an interrupted sync resumes after it.
MERGE (s:SyncState {ns: $ns, peer: $peer})
SET s.seq = $seq, s.pulled_label = $label, s.pulled_key = $key, s.at = $now
RETURN s.seq AS seq
