// A fact about to be retracted or corrected, with its subject's id (to lock it).
MATCH (f:Fact {ns: $ns, id: $id})-[:SUBJECT]->(s)
RETURN f {.*} AS fact, s.id AS subject_id
