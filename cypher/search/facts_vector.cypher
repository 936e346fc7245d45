// Nearest facts by embedding: believed now and valid at $valid_at unless $history.
CALL db.index.vector.queryNodes('fact_embedding', $k, $vector)
YIELD node, score
WHERE node.ns = $ns AND score >= $min_score
  AND ($history OR (node.retracted_at IS NULL
       AND (node.valid_from IS NULL OR node.valid_from <= $valid_at)
       AND (node.valid_to IS NULL OR node.valid_to > $valid_at)))
RETURN node.id AS id, score
ORDER BY score DESC, id
LIMIT $limit
