// Queue a session summary for each session that grew past the threshold since its last one
// (in episodes or estimated tokens), unless one already waits; when summaries are on.
OPTIONAL MATCH (p:PipelineSwitches {ns: $ns})
WITH coalesce(p.summarize, $summarize_by_default) AS enabled
WHERE enabled
UNWIND $session_ids AS session_id
MATCH (s:Session {ns: $ns, session_id: session_id}) USING INDEX SEEK s:Session(ns, session_id)
WHERE (s.last_seq - coalesce(s.summarized_seq, 0) >= $every_episodes
       OR coalesce(s.pending_tokens, 0) >= $every_tokens)
  AND NOT EXISTS { MATCH (s)<-[:FOR_SESSION]-(waiting) WHERE waiting.state = 'queued' }
CREATE (j:Job {id: 'job_' + replace(randomUUID(), '-', ''), ns: $ns,
               kind: 'summarize_session', session_id: session_id, state: 'queued',
               attempts: 0, not_before: $now, created_at: $now, updated_at: $now})
CREATE (j)-[:FOR_SESSION]->(s)
RETURN count(j) AS queued
