// Give back a claimed batch that was not embedded (the embedder failed, the vector indexes
// are built for another model now, or the process is stopping): any worker takes it at once.
UNWIND $element_ids AS element_id
MATCH (n:EmbedPending)
WHERE elementId(n) = element_id
REMOVE n.embed_lease_until
