// Re-embedding: every embeddable node waits again (those set aside as not embeddable too),
// its old vector removed. An archived episode's content is not in the graph to embed: it
// only loses its vector (rehydrating it queues it again).
CALL () {
  MATCH (n:Episode) RETURN n
  UNION MATCH (n:Fact) RETURN n
  UNION MATCH (n:Summary) RETURN n
  UNION MATCH (n:Entity) RETURN n
}
CALL (n) {
  REMOVE n.embedding, n:EmbedFailed, n.embed_error, n.embed_failed_at
  WITH n WHERE n.archived_at IS NULL
  SET n:EmbedPending
} IN TRANSACTIONS OF 5000 ROWS
