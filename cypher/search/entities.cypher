// BM25 over entity names and aliases; an alias hit counts for the entity it names.
CALL db.index.fulltext.queryNodes('entity_names', $lucene, {limit: $limit * 4})
YIELD node, score
WHERE node.ns = $ns
WITH coalesce([(node)-[:ALIAS_OF]->(named) WHERE named.ns = $ns | named][0], node) AS entity,
     max(score) AS score
RETURN entity.id AS id, score
ORDER BY score DESC, id
LIMIT $limit
