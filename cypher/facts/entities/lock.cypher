// Serialise writers per subject: concurrent assertions about one entity queue here, so
// identity checks (and later conflict resolution) see each other's writes.
CYPHER replan=skip  // the write path keeps its plan: see graphmem/db/statements.py
UNWIND $ids AS id
MATCH (e:Entity {ns: $ns, id: id}) USING INDEX SEEK e:Entity(id)
SET e.write_version = coalesce(e.write_version, 0) + 1
RETURN count(e) AS locked
