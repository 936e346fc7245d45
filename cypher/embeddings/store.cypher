// Store embeddings and clear the pending mark (a node with no usable text gets no vector).
UNWIND $rows AS row
MATCH (n:EmbedPending)
WHERE elementId(n) = row.element_id
REMOVE n:EmbedPending
WITH n, row
WHERE row.vector IS NOT NULL
CALL db.create.setNodeVectorProperty(n, 'embedding', row.vector)
RETURN count(n) AS stored
