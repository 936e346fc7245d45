// Graph expansion on request: the turns just before and after episode hits in their session.
UNWIND $episode_ids AS episode_id
MATCH (e:Episode {ns: $ns, id: episode_id}) USING INDEX e:Episode(id)
OPTIONAL MATCH (before:Episode)-[:NEXT]->(e)
OPTIONAL MATCH (e)-[:NEXT]->(after:Episode)
WITH episode_id, [x IN [before, after] WHERE x IS NOT NULL] AS around
UNWIND around AS neighbour
RETURN episode_id, neighbour.id AS id
