// Queue one job on request (extractFacts, summarize, stale regeneration), linked to the
// episodes it concerns and the session it is for.
CREATE (j:Job {id: $id, ns: $ns, kind: $kind, session_id: $session_id, state: 'queued',
               attempts: 0, not_before: $now, created_at: $now, updated_at: $now})
WITH j
CALL (j) {
  UNWIND $episode_ids AS episode_id
  MATCH (e:Episode {ns: $ns, id: episode_id}) USING INDEX SEEK e:Episode(id)
  CREATE (j)-[:CONCERNS]->(e)
}
CALL (j) {
  MATCH (s:Session {ns: $ns, session_id: $session_id}) USING INDEX SEEK s:Session(ns, session_id)
  CREATE (j)-[:FOR_SESSION]->(s)
}
RETURN j {.*} AS job
