// How many nodes wait for an embedding.
MATCH (n:EmbedPending)
RETURN count(n) AS pending
