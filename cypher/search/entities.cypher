// BM25 over entity names and aliases; an alias hit counts for the entity it names.
CALL db.index.fulltext.queryNodes('entity_names', $lucene, {limit: $limit * 4})
YIELD node, score
WHERE node.ns = $ns
OPTIONAL MATCH (node)-[:ALIAS_OF]->(named:Entity {ns: $ns})
WITH coalesce(named, node) AS entity, max(score) AS score
RETURN entity.id AS id, score
ORDER BY score DESC, id
LIMIT $limit
