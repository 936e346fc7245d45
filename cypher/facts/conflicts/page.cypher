// Conflicts of a namespace by status, newest first, with their candidate facts.
MATCH (c:Conflict {ns: $ns})
WHERE ($status IS NULL OR c.status = $status)
  AND ($after_t IS NULL OR c.created_at < $after_t
       OR (c.created_at = $after_t AND c.id < $after_id))
WITH c ORDER BY c.created_at DESC, c.id DESC LIMIT $limit
MATCH (c)-[:CANDIDATE]->(f:Fact)
WITH c, f ORDER BY f.recorded_at, f.id
RETURN c {.*} AS conflict, collect(f {.*, embedding: null}) AS candidates
ORDER BY conflict.created_at DESC, conflict.id DESC
