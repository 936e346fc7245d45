// The episodes a job concerns, in the order they happened.
MATCH (:Job {ns: $ns, id: $id})-[:CONCERNS]->(e:Episode)
RETURN e {.*, embedding: null} AS episode
ORDER BY e.occurred_at, e.seq, e.id
