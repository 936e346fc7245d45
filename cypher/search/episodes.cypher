// BM25 over episode content within the namespace, optionally one session and a time range.
CALL db.index.fulltext.queryNodes('episode_text_with_context', $lucene, {limit: $limit * 4})
YIELD node, score
WHERE node.ns = $ns
  AND ($session_id IS NULL OR node.session_id = $session_id)
  AND ($start IS NULL OR node.occurred_at >= $start)
  AND ($end IS NULL OR node.occurred_at < $end)
RETURN node.id AS id, score
ORDER BY score DESC, id
LIMIT $limit
