// Record which embedder the vector indexes are built for.
MERGE (s:EmbeddingSpace {name: 'default'})
SET s.model = $model, s.dimension = $dimension, s.updated_at = datetime()
RETURN s.model AS model
