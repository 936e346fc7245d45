// Who changed which namespace's memory, with what operation, when, and how it ended; never
// what was written.
UNWIND $events AS e
CREATE (a:AuditEvent {id: e.id, ns: $ns, at: $now, operation: e.operation,
                      actor: e.actor, key_id: e.key_id, outcome: e.outcome,
                      request_id: e.request_id})
RETURN count(a) AS recorded
