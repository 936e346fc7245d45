// Claim the oldest due job for a worker, atomically: the first SET takes the node's write
// lock, so a second worker waiting on it re-reads `state` after the first one commits and
// finds it taken (then it gets a null job, and tries again).
// A namespace's jobs run one at a time and in the order they were queued (a job backing off
// holds back the later ones): one user's memory changes in the order it was told, while
// namespaces run in parallel. A job asked for by id (`wait: true`) may pass queued ones, but
// never runs beside another job of its namespace. Both checks seek (ns, state): a namespace's
// finished jobs pile up, and reading them all on every claim would grow without bound.
MATCH (j:Job {state: 'queued'})
WHERE j.not_before <= $now AND ($id IS NULL OR j.id = $id)
  AND NOT EXISTS { MATCH (running:Job {ns: j.ns, state: 'running'})
                   USING INDEX SEEK running:Job(ns, state) }
  AND ($id IS NOT NULL OR NOT EXISTS {
        MATCH (earlier:Job {ns: j.ns, state: 'queued'}) USING INDEX SEEK earlier:Job(ns, state)
        WHERE earlier.created_at < j.created_at })
WITH j ORDER BY j.not_before, j.created_at, j.id LIMIT 1
SET j._lock = true
WITH j, j.state = 'queued' AS free
FOREACH (_ IN CASE WHEN free THEN [1] ELSE [] END |
  SET j.state = 'running', j.attempts = j.attempts + 1, j.worker = $worker,
      j.lease_until = $lease_until, j.started_at = $now, j.updated_at = $now)
REMOVE j._lock
RETURN CASE WHEN free THEN j {.*, episodes: COUNT { (j)-[:CONCERNS]->() }} END AS job
