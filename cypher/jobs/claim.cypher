// Claim the oldest due job (or the one asked for) for a worker, atomically: the first SET
// takes the node's write lock, so a second worker waiting on it re-reads `state` after the
// first one commits and finds it taken (then it gets a null job, and tries the next one).
// A namespace's jobs run one at a time, in order (memory of one user changes in the order
// it was told); namespaces run in parallel. A job asked for by id runs regardless.
MATCH (j:Job {state: 'queued'})
WHERE j.not_before <= $now AND ($id IS NULL OR j.id = $id)
  AND ($id IS NOT NULL OR NOT EXISTS { MATCH (:Job {ns: j.ns, state: 'running'}) })
WITH j ORDER BY j.not_before, j.id LIMIT 1
SET j._lock = true
WITH j, j.state = 'queued' AS free
FOREACH (_ IN CASE WHEN free THEN [1] ELSE [] END |
  SET j.state = 'running', j.attempts = j.attempts + 1, j.worker = $worker,
      j.lease_until = $lease_until, j.started_at = $now, j.updated_at = $now)
REMOVE j._lock
RETURN CASE WHEN free THEN j {.*} END AS job
