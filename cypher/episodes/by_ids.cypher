// Episodes by id within the namespace (batched for DataLoaders).
MATCH (e:Episode {ns: $ns}) USING INDEX SEEK e:Episode(id)
WHERE e.id IN $ids
RETURN e {.*, embedding: null} AS episode
LIMIT 100000
