// A batch of nodes waiting for an embedding, oldest label first (service-wide: the worker
// writes back by node id only, so no namespace's data crosses into another's). An episode is
// embedded with the turn before it (`context`); its text may be encrypted, so it is put
// together after decryption.
MATCH (n:EmbedPending)
RETURN elementId(n) AS element_id, labels(n) AS labels, n.ns AS ns, n.context AS context,
       coalesce(n.content, n.text, n.name) AS body
LIMIT $limit
