// Graphiti's sagas of one group, with the episodes each holds and its running summary.
MATCH (s:Saga)
WHERE s.group_id = $group
RETURN s.uuid AS uuid, s.name AS name, s.summary AS summary, s.created_at AS created_at,
       s.last_summarized_at AS summarized_at,
       COLLECT {
         MATCH (s)-[:HAS_EPISODE]->(e:Episodic)
         RETURN {uuid: e.uuid, created_at: e.created_at}
       } AS episodes
ORDER BY s.created_at, s.uuid
