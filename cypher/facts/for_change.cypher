// A fact about to be retracted or corrected, with its endpoint entities' ids (to lock them).
MATCH (f:Fact {ns: $ns, id: $id})-[:SUBJECT]->(s)
OPTIONAL MATCH (f)-[:OBJECT]->(o:Entity)
RETURN f {.*, embedding: null} AS fact, s.id AS subject_id, o.id AS object_id
