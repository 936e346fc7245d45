// Evidence episodes of many facts at once (DataLoader), without their content and metadata:
// for answers that ask for none of it (`evidence { id externalId }`), so a fact with 150
// long turns of evidence does not read them all.
UNWIND $fact_ids AS fact_id
MATCH (f:Fact {ns: $ns, id: fact_id})-[ev:EVIDENCED_BY]->(e:Episode)
WITH fact_id, e, ev ORDER BY e.occurred_at LIMIT 100000
RETURN collect({fact_id: fact_id, quote: ev.quote, episode: e {
  .id, .ns, .kind, .occurred_at, .recorded_at, .external_id, .session_id, .seq, .actor,
  .importance, .sensitivity, .content_hash, .redacted_at, .archived_at,
  content: null, metadata: null}}) AS rows
