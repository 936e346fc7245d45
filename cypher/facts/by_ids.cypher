// Facts by id within the namespace (batched for DataLoaders).
MATCH (f:Fact {ns: $ns}) USING INDEX SEEK f:Fact(id)
WHERE f.id IN $ids
WITH f LIMIT 100000
RETURN collect({fact: f {.*, embedding: null}}) AS rows
