// Whether any delivery is due, service-wide: a read, so an idle dispatcher polls without
// writing (a claim is a write transaction, one a second per process for nothing).
MATCH (d:Delivery {state: 'pending'}) USING INDEX SEEK d:Delivery(state, next_at)
WHERE d.next_at <= $now AND (d.lease_until IS NULL OR d.lease_until < $now)
WITH d LIMIT 1
RETURN count(d) AS due
