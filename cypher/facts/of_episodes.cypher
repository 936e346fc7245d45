// Facts derived from many episodes at once (DataLoader).
UNWIND $episode_ids AS episode_id
MATCH (f:Fact {ns: $ns})-[:EVIDENCED_BY]->(e:Episode {ns: $ns, id: episode_id})
USING INDEX SEEK e:Episode(id)
RETURN episode_id, f {.*, embedding: null} AS fact
ORDER BY f.recorded_at
LIMIT 100000
