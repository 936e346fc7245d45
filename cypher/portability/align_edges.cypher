// Import: the predicate edges of these facts take their belief (status, confidence) from
// their statement node, as every writer keeps them: no file can make `traverse` (the edges)
// and `facts` (the nodes) disagree. An edge is found from the fact's subject by its fact_id.
UNWIND $ids AS id
MATCH (f:Fact {ns: $ns, id: id}) USING INDEX SEEK f:Fact(id)
MATCH (f)-[:SUBJECT]->(s)
MATCH (s)-[r]->()
WHERE r.fact_id = id AND (r.status <> f.status OR r.confidence <> f.confidence
                          OR r.status IS NULL OR r.confidence IS NULL)
SET r.status = f.status, r.confidence = f.confidence
RETURN count(r) AS aligned
