// What memory believes about someone
// An entity and its current facts, each drawn as a typed edge such as (Alice)-[:WORKS_AT]->
// (Acme). Set :param entity => 'Alice' (names match case-insensitively).
MATCH (e:Entity {ns: $ns})
WHERE e.key = toLower(trim($entity))
   OR EXISTS { (:Alias {ns: $ns, key: toLower(trim($entity))})-[:ALIAS_OF]->(e) }
MATCH (e)-[fact]-(other)
WHERE fact.fact_id IS NOT NULL AND fact.status IN ['active', 'disputed']
RETURN e, fact, other
