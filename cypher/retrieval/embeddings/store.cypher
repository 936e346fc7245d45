// Store embeddings and clear the pending mark (a node with no usable text gets no vector) —
// only while the vector indexes are built for this model: after a switch to another
// embedder, a process still running the old one must not write vectors the indexes ignore.
OPTIONAL MATCH (space:EmbeddingSpace {name: 'default', model: $model})
CALL (space) {
  WITH space WHERE space IS NOT NULL
  UNWIND $rows AS row
  MATCH (n:EmbedPending)
  WHERE elementId(n) = row.element_id
  REMOVE n:EmbedPending, n.embed_lease_until
  WITH n, row
  CALL (n, row) {
    WITH n, row WHERE row.vector IS NOT NULL
    CALL db.create.setNodeVectorProperty(n, 'embedding', row.vector)
  }
  RETURN count(n) AS cleared
}
RETURN space IS NOT NULL AS current, cleared
