// BM25 over fact sentences: believed now and valid at $valid_at unless $history.
CALL db.index.fulltext.queryNodes('fact_text', $lucene, {limit: $limit * 4})
YIELD node, score
WHERE node.ns = $ns
  AND ($history OR (node.retracted_at IS NULL
       AND (node.valid_from IS NULL OR node.valid_from <= $valid_at)
       AND (node.valid_to IS NULL OR node.valid_to > $valid_at)))
RETURN node.id AS id, score
ORDER BY score DESC, id
LIMIT $limit
