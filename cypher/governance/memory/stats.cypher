// How much memory a namespace holds, by kind, and what needs attention.
RETURN
  COUNT { MATCH (:Session {ns: $ns}) } AS sessions,
  COUNT { MATCH (:Episode {ns: $ns}) } AS episodes,
  COUNT { MATCH (:Entity {ns: $ns}) } AS entities,
  COUNT { MATCH (f:Fact {ns: $ns}) WHERE f.retracted_at IS NULL } AS believed_facts,
  COUNT { MATCH (:Fact {ns: $ns}) } AS fact_versions,
  COUNT { MATCH (:Summary {ns: $ns}) } AS summaries,
  COUNT { MATCH (s:Summary {ns: $ns}) WHERE s.stale } AS stale_summaries,
  COUNT { MATCH (:Conflict {ns: $ns, status: 'open'}) } AS open_conflicts,
  COUNT { MATCH (n:EmbedPending {ns: $ns}) } AS pending_embeddings,
  COUNT { MATCH (j:Job {ns: $ns}) WHERE j.state = 'queued' } AS queued_jobs,
  COUNT { MATCH (j:Job {ns: $ns}) WHERE j.state = 'failed' } AS failed_jobs,
  COLLECT { MATCH (j:Job {ns: $ns}) WHERE j.state IN ['queued', 'running']
            RETURN j.created_at AS t ORDER BY t LIMIT 1 }[0] AS oldest_job_at
