// Claimed nodes that cannot be embedded (content no key opens, a text the embedder refuses
// when embedded alone): out of the queue, so they never fail a batch of anyone's again, and
// marked with the error's type (never content). `graphmem reembed`, or the embedding worker's
// next start (retrieval/embeddings/requeue_set_aside), queues them again.
UNWIND $rows AS row
MATCH (n:EmbedPending)
WHERE elementId(n) = row.element_id
REMOVE n:EmbedPending, n.embed_lease_until
SET n:EmbedFailed, n.embed_error = row.error, n.embed_failed_at = $now
RETURN count(n) AS set_aside
