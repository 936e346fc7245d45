// What each attempt came to: delivered, pending again (with when), or failed for good.
UNWIND $outcomes AS o
MATCH (d:Delivery {id: o.id})
SET d.state = o.state, d.attempts = o.attempts, d.last_status = o.last_status,
    d.last_error = o.last_error, d.next_at = o.next_at, d.delivered_at = o.delivered_at,
    d.lease_until = null
RETURN count(d) AS recorded
