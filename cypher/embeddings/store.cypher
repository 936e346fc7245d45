// Store embeddings and clear the pending mark.
UNWIND $rows AS row
MATCH (n:EmbedPending)
WHERE elementId(n) = row.element_id
CALL db.create.setNodeVectorProperty(n, 'embedding', row.vector)
REMOVE n:EmbedPending
RETURN count(n) AS stored
