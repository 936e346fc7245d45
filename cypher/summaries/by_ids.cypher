// Summaries by id within the namespace.
MATCH (s:Summary {ns: $ns})
WHERE s.id IN $ids
RETURN s {.*, embedding: null} AS summary
