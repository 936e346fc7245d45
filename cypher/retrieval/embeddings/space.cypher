// The embedding space the vector indexes were built for (one per database).
MATCH (s:EmbeddingSpace {name: 'default'})
RETURN s.model AS model, s.dimension AS dimension
