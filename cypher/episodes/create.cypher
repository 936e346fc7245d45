// Append new episodes (the batch is already checked for duplicates) and join their sessions;
// remember the namespace's speakers ($actors: {key, name}), so search can tell their names.
// Where a batch only appends to a session, its NEXT chain and search windows come ready:
// $links ({from, to}: ids) chain the new turns on from the session's last stored one, and
// $windows ({id, window}) rewrite that stored turn's window, which now has a next turn.
// Other sessions are relinked by `episodes/relink`.
CALL () {
  UNWIND $actors AS actor
  MERGE (a:Actor {ns: $ns, key: actor.key})
    ON CREATE SET a.name = actor.name
}
CALL () {
  UNWIND $episodes AS row
  CREATE (e:Episode:EmbedPending)
  SET e = row, e.ns = $ns, e.ns_key = $ns_key
  WITH e
  CALL (e) {
    WITH e WHERE e.session_id IS NOT NULL
    MATCH (s:Session {ns: $ns, session_id: e.session_id}) USING INDEX SEEK s:Session(ns, session_id)
    CREATE (e)-[:IN_SESSION]->(s)
  }
  RETURN count(e) AS created
}
CALL () {
  UNWIND $links AS link
  MATCH (a:Episode {ns: $ns, id: link.from}) USING INDEX SEEK a:Episode(id)
  MATCH (b:Episode {ns: $ns, id: link.to}) USING INDEX SEEK b:Episode(id)
  CREATE (a)-[:NEXT]->(b)
}
CALL () {
  UNWIND $windows AS w
  MATCH (p:Episode {ns: $ns, id: w.id}) USING INDEX SEEK p:Episode(id)
  SET p.window = w.window
}
RETURN created
