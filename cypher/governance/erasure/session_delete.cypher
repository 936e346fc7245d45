// Delete what a session's erasure takes beyond its episodes: the facts taken only from them
// (statement nodes and predicate edges), its summaries, then the entities and values left with
// no fact and no alias, conflicts left empty, and the session itself: the node stays as its
// tombstone, (:ClosedSession {ns, session_id, closed_at}) and nothing else, so a writer that
// waited for this erasure finds it closed rather than making the session again. Tombstones
// are not exported: they belong to where the session was closed.
CALL () {
  UNWIND $facts AS id
  MATCH (f:Fact {ns: $ns, id: id}) USING INDEX SEEK f:Fact(id)
  CALL (f) {
    MATCH (f)-[:SUBJECT]->(subject)-[edge {fact_id: f.id}]->()
    DELETE edge
  }
  DETACH DELETE f
  RETURN count(*) AS facts
}
CALL () {
  UNWIND $summaries AS id
  MATCH (m:Summary {ns: $ns, id: id}) USING INDEX SEEK m:Summary(id)
  DETACH DELETE m
  RETURN count(*) AS summaries
}
CALL () {
  UNWIND $entities AS id
  MATCH (o:Entity {ns: $ns, id: id}) USING INDEX SEEK o:Entity(id)
  WHERE NOT EXISTS { (o)<-[:SUBJECT|OBJECT]-(:Fact) } AND NOT EXISTS { (o)<-[:ALIAS_OF]-() }
  DETACH DELETE o
  RETURN count(*) AS entities
}
CALL () {
  UNWIND $values AS id
  MATCH (o:Value {ns: $ns, id: id}) USING INDEX SEEK o:Value(id)
  WHERE NOT EXISTS { (o)<-[:OBJECT]-(:Fact) }
  DETACH DELETE o
  RETURN count(*) AS values
}
CALL () {
  MATCH (c:Conflict {ns: $ns})
  WHERE NOT EXISTS { (c)-[:CANDIDATE]->(:Fact) }
  DETACH DELETE c
  RETURN count(*) AS conflicts
}
CALL () {
  MATCH (s:Session {ns: $ns, session_id: $session_id})
  CALL (s) {
    MATCH (s)-[r]-()
    DELETE r
  }
  SET s = {ns: $ns, session_id: $session_id, closed_at: $now}
  REMOVE s:Session
  SET s:ClosedSession
  RETURN count(*) AS sessions
}
RETURN facts, summaries, entities, values, conflicts, sessions
