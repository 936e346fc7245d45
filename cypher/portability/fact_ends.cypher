// Import into another namespace: the ends of these facts, as imported (their ids remapped),
// so each fact's statement identity is made again from them: the file's was made from the
// source's entity ids, and no assertion or forgotten statement of the target would match it.
UNWIND $ids AS id
MATCH (f:Fact {ns: $ns, id: id}) USING INDEX SEEK f:Fact(id)
MATCH (f)-[:SUBJECT]->(s)
MATCH (f)-[:OBJECT]->(o)
RETURN f.id AS id, s.id AS subject_id, f.predicate AS predicate, o.id AS object_id
