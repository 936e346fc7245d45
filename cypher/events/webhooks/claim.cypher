// Claim due deliveries for this dispatcher until $lease_until, service-wide (each carries its
// namespace; the webhook's URL and secret come with it). The first SET takes each node's
// write lock: a second dispatcher waiting on it re-reads it after the first commits, and
// leaves it when it is leased. A dead dispatcher's lease runs out and another one takes it.
MATCH (d:Delivery {state: 'pending'}) USING INDEX SEEK d:Delivery(state, next_at)
WHERE d.next_at <= $now AND (d.lease_until IS NULL OR d.lease_until < $now)
WITH d ORDER BY d.next_at LIMIT $limit
SET d._lock = true
WITH d, d.state = 'pending' AND (d.lease_until IS NULL OR d.lease_until < $now) AS free
REMOVE d._lock
WITH d WHERE free
SET d.lease_until = $lease_until
WITH d
MATCH (d)-[:SENT_TO]->(w:Webhook)
MATCH (d)-[:CARRIES]->(e:Event)
RETURN collect({id: d.id, ns: d.ns, attempts: d.attempts, kind: e.kind, event_id: d.event_id,
                at: e.at, subject_id: d.subject_id, url: w.url, secret: w.secret}) AS rows
