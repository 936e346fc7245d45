// One conflict with its candidates (believed or not).
MATCH (c:Conflict {ns: $ns, id: $id})-[:CANDIDATE]->(f:Fact)-[:SUBJECT]->(s)
WITH c, f, s ORDER BY f.recorded_at, f.id
RETURN c {.*} AS conflict, collect(f {.*, subject_id: s.id}) AS candidates
