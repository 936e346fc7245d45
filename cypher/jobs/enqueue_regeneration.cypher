// The worker's sweep: stale summaries no rebuild has replaced yet, in namespaces with
// summaries switched on, get a job that rebuilds them — a session's from its episodes, the
// namespace's from the session summaries — unless one already waits or runs.
MATCH (m:Summary {stale: true})
WHERE m.rebuilt_at IS NULL
OPTIONAL MATCH (p:PipelineSwitches {ns: m.ns})
WITH m WHERE coalesce(p.summarize, $summarize_by_default)
WITH DISTINCT m.ns AS ns,
     CASE WHEN m.level = 1 AND m.session_id IS NOT NULL THEN 'summarize_session'
          ELSE 'summarize_namespace' END AS kind,
     CASE WHEN m.level = 1 THEN m.session_id END AS session_id
WHERE NOT EXISTS { MATCH (j:Job {ns: ns, kind: kind})
                   WHERE j.state IN ['queued', 'running']
                     AND coalesce(j.session_id, '') = coalesce(session_id, '') }
WITH ns, kind, session_id LIMIT $limit
CREATE (j:Job {id: 'job_' + replace(randomUUID(), '-', ''), ns: ns, kind: kind,
               session_id: session_id, state: 'queued', attempts: 0, not_before: $now,
               created_at: $now, updated_at: $now})
WITH j
OPTIONAL MATCH (s:Session {ns: j.ns, session_id: j.session_id})
FOREACH (_ IN CASE WHEN s IS NULL THEN [] ELSE [1] END | CREATE (j)-[:FOR_SESSION]->(s))
RETURN count(j) AS queued
