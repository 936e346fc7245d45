// Append new episodes (the batch is already checked for duplicates) and join their sessions;
// remember the namespace's speakers ($actors: {key, name}), so search can tell their names.
CALL () {
  UNWIND $actors AS actor
  MERGE (a:Actor {ns: $ns, key: actor.key})
    ON CREATE SET a.name = actor.name
}
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
