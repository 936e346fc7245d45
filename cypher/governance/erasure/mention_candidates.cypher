// Turns of the namespace that may name an entity ($names, lower case), a page at a time by
// id ($after, $limit): those whose text holds a name in any case, and those whose text Neo4j
// cannot read (sealed, or archived: its content is in the archive store). Each is checked by
// the exact whole-word match in graphmem/governance/mentions. A redacted turn holds nothing.
MATCH (e:Episode {ns: $ns}) USING INDEX e:Episode(ns)
WHERE e.id > $after AND e.redacted_at IS NULL
  AND (e.archived_at IS NOT NULL
       OR any(t IN [e.content, e.metadata, e.context, e.window]
              WHERE t STARTS WITH 'enc:v' OR any(n IN $names WHERE toLower(t) CONTAINS n)))
WITH e ORDER BY e.id LIMIT $limit
RETURN e {.*, embedding: null} AS episode
