// Summaries covering many episodes at once (DataLoader).
UNWIND $episode_ids AS episode_id
MATCH (s)-[:SUMMARIZES]->(e:Episode {ns: $ns, id: episode_id}) USING INDEX SEEK e:Episode(id)
WHERE s.ns = $ns  // s: a Summary, by type
RETURN episode_id, s {.*, embedding: null} AS summary
ORDER BY s.created_at
LIMIT 100000
