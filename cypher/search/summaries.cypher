// BM25 over summary text, optionally one session; stale summaries rank but say so.
CALL db.index.fulltext.queryNodes('summary_text', $lucene, {limit: $limit * 4})
YIELD node, score
WHERE node.ns = $ns AND ($session_id IS NULL OR node.session_id = $session_id)
RETURN node.id AS id, score
ORDER BY score DESC, id
LIMIT $limit
