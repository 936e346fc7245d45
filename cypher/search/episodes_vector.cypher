// Nearest episodes by embedding (cosine), then the same filters as BM25. The vector index
// is shared by all namespaces, so it is over-fetched and filtered to this one.
CALL db.index.vector.queryNodes('episode_embedding', $k, $vector)
YIELD node, score
WHERE node.ns = $ns AND score >= $min_score
  AND ($session_id IS NULL OR node.session_id = $session_id)
  AND ($start IS NULL OR node.occurred_at >= $start)
  AND ($end IS NULL OR node.occurred_at < $end)
RETURN node.id AS id, score
ORDER BY score DESC, id
LIMIT $limit
