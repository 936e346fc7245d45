// Nearest summaries by embedding, optionally one session.
CALL db.index.vector.queryNodes('summary_embedding', $k, $vector)
YIELD node, score
WHERE node.ns = $ns AND score >= $min_score AND ($session_id IS NULL OR node.session_id = $session_id)
RETURN node.id AS id, score
ORDER BY score DESC, id
LIMIT $limit
