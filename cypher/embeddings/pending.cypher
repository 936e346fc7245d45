// A batch of nodes waiting for an embedding, oldest label first (service-wide: the worker
// writes back by node id only, so no namespace's data crosses into another's).
MATCH (n:EmbedPending)
RETURN elementId(n) AS element_id, labels(n) AS labels,
       CASE WHEN n.context IS NULL THEN coalesce(n.content, n.text, n.name)
            ELSE n.context + '\n' + n.content END AS text
LIMIT $limit
