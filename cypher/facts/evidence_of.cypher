// Evidence episodes of many facts at once (DataLoader).
UNWIND $fact_ids AS fact_id
MATCH (f:Fact {ns: $ns, id: fact_id})-[ev:EVIDENCED_BY]->(e:Episode)
WITH fact_id, e, ev ORDER BY e.occurred_at LIMIT 100000
RETURN collect({fact_id: fact_id, episode: e {.*, embedding: null}, quote: ev.quote}) AS rows
