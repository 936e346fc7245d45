// Nearest entities by the embedding of their name.
CALL db.index.vector.queryNodes('entity_embedding', $k, $vector)
YIELD node, score
WHERE node.ns = $ns AND score >= $min_score
RETURN node.id AS id, score
ORDER BY score DESC, id
LIMIT $limit
