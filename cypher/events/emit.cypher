// The outbox: one Event node per transaction and kind (per 10,000 changes), holding the ids
// of what changed: a 500-fact batch writes one node, not 500 (see graphmem/events/outbox.py).
// Its events are told one by one: the only one has the node's id, else the
// n-th is `<node id>.<n, five digits>` (`events/since_any` reads them the same way). A pending
// delivery is made for each event and each webhook of the namespace that wants that kind.
UNWIND $batches AS b
CREATE (batch:Event {id: b.id, ns: $ns, kind: $kind, subject_ids: b.subject_ids, at: $now})
WITH batch
CALL (batch) {
  MATCH (w:Webhook {ns: $ns}) WHERE batch.kind IN w.kinds
  UNWIND range(0, size(batch.subject_ids) - 1) AS n
  CREATE (d:Delivery {id: 'dlv_' + replace(randomUUID(), '-', ''), ns: $ns, state: 'pending',
                      attempts: 0, kind: batch.kind, subject_id: batch.subject_ids[n],
                      event_id: CASE size(batch.subject_ids) WHEN 1 THEN batch.id
                                ELSE batch.id + '.' + right('0000' + toString(n), 5) END,
                      created_at: $now, next_at: $now})
  CREATE (d)-[:CARRIES]->(batch), (d)-[:SENT_TO]->(w)
}
RETURN count(*) AS emitted
