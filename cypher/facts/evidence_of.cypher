// Evidence episodes of many facts at once (DataLoader).
UNWIND $fact_ids AS fact_id
MATCH (f:Fact {ns: $ns, id: fact_id})-[ev:EVIDENCED_BY]->(e:Episode)
RETURN fact_id, e {.*, embedding: null} AS episode, ev.quote AS quote
ORDER BY e.occurred_at
LIMIT 100000
