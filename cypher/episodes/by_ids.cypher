// Episodes by id within the namespace (batched for DataLoaders).
MATCH (e:Episode {ns: $ns}) USING INDEX SEEK e:Episode(id)
WHERE e.id IN $ids
WITH e LIMIT 100000
RETURN collect({episode: e {.*, embedding: null}}) AS rows
