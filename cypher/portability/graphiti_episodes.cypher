// Graphiti's episodes of one group (its namespace), oldest first, each with its saga's name
// (Graphiti's sequence of episodes: a session here), if it is in one. Read from Graphiti's
// own database by `graphmem import --from graphiti`.
MATCH (e:Episodic)
WHERE e.group_id = $group
OPTIONAL CALL (e) {
  MATCH (s:Saga)-[:HAS_EPISODE]->(e)
  RETURN s.name AS saga
  ORDER BY s.created_at
  LIMIT 1
}
RETURN e.uuid AS uuid, e.name AS name, e.content AS content, e.source AS source,
       e.source_description AS source_description, e.valid_at AS valid_at,
       e.created_at AS created_at, saga
ORDER BY e.valid_at, e.created_at, e.uuid
