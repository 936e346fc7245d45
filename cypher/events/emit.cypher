// The outbox: events of one kind, created by the transaction that makes the change.
UNWIND $events AS e
CREATE (:Event {id: e.id, ns: $ns, kind: e.kind, subject_id: e.subject_id, at: $now})
RETURN count(*) AS emitted
