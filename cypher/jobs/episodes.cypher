// The episodes a job concerns, in the order they happened.
MATCH (j:Job {ns: $ns, id: $id})-[:CONCERNS]->(e) USING INDEX SEEK j:Job(id)
WHERE e.ns = $ns  // e: an Episode, by type
RETURN e {.*, embedding: null} AS episode
ORDER BY e.occurred_at, e.seq, e.id
