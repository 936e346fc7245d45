// What erasing a session touches: its episodes (and their text, to verify no copy is left),
// every fact version taken only from them (any status; not a pinned one: a user asked to
// always remember it), the entities and values at those facts' ends, and its summaries.
// The session's write lock comes first: a writer appending to it holds that lock until it
// commits (episodes/reserve_seq), so what is read below includes every turn committed before,
// and a turn after waits for this erasure, then finds the session closed.
MATCH (s:Session {ns: $ns, session_id: $session_id})
SET s.closing_at = $now
WITH s
CALL (s) {
  OPTIONAL MATCH (s)<-[:IN_SESSION]-(e:Episode)
  RETURN collect(e.id) AS episodes, collect(e.content) AS contents
}
CALL (episodes) {
  UNWIND episodes AS id
  MATCH (:Episode {ns: $ns, id: id})<-[:EVIDENCED_BY]-(f:Fact)
  WHERE f.ns = $ns AND f.pinned_at IS NULL
    AND NOT EXISTS {
      MATCH (f)-[:EVIDENCED_BY]->(other) WHERE NOT other.id IN episodes
    }
  RETURN collect(DISTINCT f.id) AS facts
}
CALL (facts) {
  UNWIND facts AS id
  MATCH (:Fact {ns: $ns, id: id})-[:SUBJECT|OBJECT]->(x)
  RETURN collect(DISTINCT CASE WHEN x:Entity THEN x.id END) AS entities,
         collect(DISTINCT CASE WHEN x:Value THEN x.id END) AS values
}
CALL (s) {
  OPTIONAL MATCH (summary:Summary {ns: $ns, session_id: $session_id})
  RETURN collect(summary.id) AS summaries
}
RETURN episodes, contents, facts, entities, values, summaries, s.updated_at AS updated_at,
       s.ephemeral_ttl_s AS ttl_s
