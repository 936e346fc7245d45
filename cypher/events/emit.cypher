// The outbox: events of one kind, created by the transaction that makes the change, and a
// pending delivery for each webhook of the namespace that wants that kind.
UNWIND $events AS e
CREATE (event:Event {id: e.id, ns: $ns, kind: e.kind, subject_id: e.subject_id, at: $now})
WITH event
CALL (event) {
  MATCH (w:Webhook {ns: $ns}) WHERE event.kind IN w.kinds
  CREATE (d:Delivery {id: 'dlv_' + replace(randomUUID(), '-', ''), ns: $ns, state: 'pending',
                      attempts: 0, kind: event.kind, event_id: event.id, created_at: $now,
                      next_at: $now})
  CREATE (d)-[:CARRIES]->(event), (d)-[:SENT_TO]->(w)
}
RETURN count(*) AS emitted
