// One conflict with its candidates (believed or not) and their endpoint entities.
MATCH (c:Conflict {ns: $ns, id: $id})-[:CANDIDATE]->(f:Fact)-[:SUBJECT]->(s)
OPTIONAL MATCH (f)-[:OBJECT]->(o:Entity)
WITH c, f, s, o ORDER BY f.recorded_at, f.id
RETURN c {.*} AS conflict, collect(f {.*, embedding: null, subject_id: s.id, object_entity_id: o.id}) AS candidates
