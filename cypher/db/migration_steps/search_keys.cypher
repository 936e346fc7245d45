// 0012: the namespace's Lucene token on each of its indexed nodes, and its sessions and
// speakers (for the windows and the Actor nodes, written next).
CALL () { MATCH (n:Episode {ns: $ns}) SET n.ns_key = $ns_key }
CALL () { MATCH (n:Fact {ns: $ns}) SET n.ns_key = $ns_key }
CALL () { MATCH (n:Summary {ns: $ns}) SET n.ns_key = $ns_key }
CALL () { MATCH (n:Entity {ns: $ns}) SET n.ns_key = $ns_key }
CALL () { MATCH (n:Alias {ns: $ns}) SET n.ns_key = $ns_key }
CALL () {
  MATCH (s:Session {ns: $ns})
  RETURN collect(s.session_id) AS sessions
}
CALL () {
  MATCH (e:Episode {ns: $ns}) WHERE e.actor IS NOT NULL
  RETURN collect(DISTINCT e.actor) AS actors
}
RETURN sessions, actors
