// Facts by id within the namespace (batched for DataLoaders).
MATCH (f:Fact {ns: $ns}) USING INDEX SEEK f:Fact(id)
WHERE f.id IN $ids
RETURN f {.*, embedding: null} AS fact
LIMIT 100000
