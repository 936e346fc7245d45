// Whether any node waits for an embedding that no worker holds: a read, so an idle worker
// polls without writing (a claim is a write transaction, two a second per process for
// nothing).
MATCH (n:EmbedPending)
WHERE n.embed_lease_until IS NULL OR n.embed_lease_until < $now
WITH n LIMIT 1
RETURN count(n) AS claimable
