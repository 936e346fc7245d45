// The nodes set aside as not embeddable wait again (at an embedding worker's start: the keys
// or the embedder it runs with may open or take them now).
MATCH (n:EmbedFailed)
REMOVE n:EmbedFailed, n.embed_error, n.embed_failed_at
SET n:EmbedPending
RETURN count(n) AS requeued
