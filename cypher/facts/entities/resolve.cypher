// Resolve names to entities: by normalised key, then by alias; create what is missing.
CYPHER replan=skip  // the write path keeps its plan: see graphmem/db/statements.py
UNWIND $names AS n
OPTIONAL MATCH (alias:Alias {ns: $ns, key: n.key})-[:ALIAS_OF]->(aliased:Entity {ns: $ns})
  USING INDEX SEEK alias:Alias(ns, key)
CALL (n, aliased) {
  WITH n, aliased WHERE aliased IS NULL
  MERGE (e:Entity {ns: $ns, key: n.key})
    ON CREATE SET e:EmbedPending, e.id = 'ent_' + replace(randomUUID(), '-', ''),
                  e.name = n.name, e.ns_key = $ns_key,
                  e.type = n.type, e.created_at = $now
  SET e.type = coalesce(e.type, n.type)
  RETURN e
  UNION
  WITH n, aliased WHERE aliased IS NOT NULL
  RETURN aliased AS e
}
RETURN collect({key: n.key, id: e.id}) AS rows
