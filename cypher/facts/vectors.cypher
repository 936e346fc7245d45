// The embeddings the worker stored for these facts (of their text), so recall scores facts
// against a question without embedding them again; facts still waiting have none.
UNWIND $ids AS id
MATCH (f:Fact {ns: $ns, id: id}) USING INDEX SEEK f:Fact(id)
WITH id, f WHERE f.embedding IS NOT NULL
RETURN id, f.embedding AS embedding
