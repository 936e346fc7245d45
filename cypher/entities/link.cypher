// Which of these normalised phrases name an entity (directly or by alias) in the namespace.
UNWIND $keys AS key
OPTIONAL MATCH (direct:Entity {ns: $ns, key: key})
OPTIONAL MATCH (:Alias {ns: $ns, key: key})-[:ALIAS_OF]->(aliased:Entity {ns: $ns})
WITH key, coalesce(direct, aliased) AS e
WHERE e IS NOT NULL
RETURN DISTINCT key, e.id AS id
