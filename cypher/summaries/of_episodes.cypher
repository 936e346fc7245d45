// Summaries covering many episodes at once (DataLoader).
UNWIND $episode_ids AS episode_id
MATCH (s:Summary {ns: $ns})-[:SUMMARIZES]->(:Episode {ns: $ns, id: episode_id})
RETURN episode_id, s {.*, embedding: null} AS summary
ORDER BY s.created_at
LIMIT 100000
