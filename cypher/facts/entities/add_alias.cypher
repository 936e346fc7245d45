// Make another name resolve to an entity. Refused (no row) when the alias already names an
// entity or belongs to another one.
MATCH (e:Entity {ns: $ns, id: $id}) USING INDEX SEEK e:Entity(id)
OPTIONAL MATCH (taken:Entity {ns: $ns, key: $key}) USING INDEX SEEK taken:Entity(ns, key)
OPTIONAL MATCH (alias:Alias {ns: $ns, key: $key})-[:ALIAS_OF]->(owner:Entity {ns: $ns})
  USING INDEX SEEK alias:Alias(ns, key)
WITH e, taken, owner
WHERE (taken IS NULL OR taken = e) AND (owner IS NULL OR owner = e)
MERGE (a:Alias {ns: $ns, key: $key})
  ON CREATE SET a.name = $name, a.ns_key = $ns_key, a.created_at = $now
MERGE (a)-[:ALIAS_OF]->(e)
RETURN e.id AS id
