// Append new episodes (the batch is already checked for duplicates) and join their sessions;
// remember the namespace's speakers ($actors: {key, name}), so search can tell their names.
// Where a batch only appends to a session, its NEXT chain and search windows come ready:
// $links chain its turns on from the session's last stored one ({head: id} or {from: i}, to
// {to: i}, indexes into $episodes: found in the list the create made, since a seek for a node
// made by this transaction costs far more than one for a stored node), and $windows ({id,
// window}) rewrite that stored turn's window, which now has a next turn. Other sessions are
// relinked by `episodes/relink`.
CYPHER replan=skip  // the write path keeps its plan: see graphmem/db/statements.py
CALL () {
  UNWIND $actors AS actor
  MERGE (a:Actor {ns: $ns, key: actor.key})
    ON CREATE SET a.name = actor.name
}
CALL () {
  UNWIND range(0, size($episodes) - 1) AS i
  WITH i, $episodes[i] AS row
  CREATE (e:Episode:EmbedPending)
  SET e = row, e.ns = $ns, e.ns_key = $ns_key
  WITH i, e
  CALL (e) {
    WITH e WHERE e.session_id IS NOT NULL
    MATCH (s:Session {ns: $ns, session_id: e.session_id}) USING INDEX SEEK s:Session(ns, session_id)
    CREATE (e)-[:IN_SESSION]->(s)
  }
  WITH i, e ORDER BY i  // the list's order is the batch's
  RETURN collect(e) AS made
}
CALL (made) {
  UNWIND $links AS link
  OPTIONAL MATCH (head:Episode {ns: $ns, id: link.head}) USING INDEX SEEK head:Episode(id)
  WITH coalesce(head, made[link.from]) AS a, made[link.to] AS b
  CREATE (a)-[:NEXT]->(b)
}
CALL () {
  UNWIND $windows AS w
  MATCH (p:Episode {ns: $ns, id: w.id}) USING INDEX SEEK p:Episode(id)
  SET p.window = w.window
}
RETURN size(made) AS created
