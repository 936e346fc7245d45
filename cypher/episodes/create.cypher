// Append new episodes (the batch is already checked for duplicates) and join their sessions.
UNWIND $episodes AS row
CREATE (e:Episode:EmbedPending)
SET e = row, e.ns = $ns
WITH e
CALL (e) {
  WITH e WHERE e.session_id IS NOT NULL
  MATCH (s:Session {ns: $ns, session_id: e.session_id}) USING INDEX SEEK s:Session(ns, session_id)
  CREATE (e)-[:IN_SESSION]->(s)
}
RETURN count(e) AS created
