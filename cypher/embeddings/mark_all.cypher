// Re-embedding: every embeddable node waits again, its old vector removed.
CALL () {
  MATCH (n:Episode) RETURN n
  UNION MATCH (n:Fact) RETURN n
  UNION MATCH (n:Summary) RETURN n
  UNION MATCH (n:Entity) RETURN n
}
CALL (n) {
  SET n:EmbedPending
  REMOVE n.embedding
} IN TRANSACTIONS OF 5000 ROWS
