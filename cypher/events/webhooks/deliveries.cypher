// A webhook's delivery log, newest first.
MATCH (w:Webhook {ns: $ns, id: $id})<-[:SENT_TO]-(d:Delivery)
WITH d ORDER BY d.created_at DESC, d.id DESC LIMIT $limit
RETURN collect(d {.id, .event_id, .kind, .state, .attempts, .created_at, .next_at,
                  .delivered_at, .last_status, .last_error}) AS rows
