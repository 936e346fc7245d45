// Facts derived from many episodes at once (DataLoader).
UNWIND $episode_ids AS episode_id
MATCH (f:Fact {ns: $ns})-[:EVIDENCED_BY]->(e:Episode {ns: $ns, id: episode_id})
USING INDEX SEEK e:Episode(id)
WITH episode_id, f ORDER BY f.recorded_at LIMIT 100000
RETURN collect({episode_id: episode_id, fact: f {.*, embedding: null}}) AS rows
