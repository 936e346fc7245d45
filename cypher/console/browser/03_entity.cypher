// What memory believes about someone
// An entity and its current facts (believed, and valid now), each drawn as a typed edge such
// as (Alice)-[:WORKS_AT]->(Acme). Set :param entity => 'Alice' (names match
// case-insensitively). Drop the status and validity conditions to see the whole history.
MATCH (e:Entity {ns: $ns})
WHERE e.key = toLower(trim($entity))
   OR EXISTS { (:Alias {ns: $ns, key: toLower(trim($entity))})-[:ALIAS_OF]->(e) }
MATCH (e)-[fact]-(other)
WHERE fact.fact_id IS NOT NULL AND fact.status IN ['active', 'disputed']
  AND coalesce(fact.valid_from, datetime()) <= datetime()
  AND coalesce(fact.valid_to, datetime() + duration('P1D')) > datetime()
RETURN e, fact, other
