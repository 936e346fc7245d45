// The namespaces holding memory (sessions or entities) under one prefix of a key's grants, in
// name order after $after ('' for all: an admin key). Exact grants are listed by the caller.
CALL () {
  MATCH (s:Session) WHERE s.ns STARTS WITH $prefix AND s.ns > $after
  RETURN s.ns AS ns
  UNION
  MATCH (e:Entity) WHERE e.ns STARTS WITH $prefix AND e.ns > $after
  RETURN e.ns AS ns
}
RETURN DISTINCT ns
ORDER BY ns
LIMIT $limit
