// Claim a batch of nodes waiting for an embedding, for one worker until $lease_until, so two
// service processes never embed the same node (service-wide: the worker writes back by node
// id only, so no namespace's data crosses into another's). The first SET takes each node's
// write lock: a second worker waiting on it re-reads the node after the first one commits,
// and leaves it when it is leased or already embedded (no longer waiting). A worker that
// dies leaves leases that run out ($now), and another one takes the nodes. An episode is
// embedded with the turn before it (`context`) and its speaker; its text may be encrypted, so
// it is put together after decryption.
MATCH (n:EmbedPending)
WHERE n.embed_lease_until IS NULL OR n.embed_lease_until < $now
WITH n LIMIT $limit
SET n._lock = true
WITH n, n:EmbedPending AND (n.embed_lease_until IS NULL OR n.embed_lease_until < $now) AS free
REMOVE n._lock
WITH n WHERE free
SET n.embed_lease_until = $lease_until
RETURN elementId(n) AS element_id, labels(n) AS labels, n.ns AS ns, n.context AS context,
       n.actor AS actor, coalesce(n.content, n.text, n.name) AS body
