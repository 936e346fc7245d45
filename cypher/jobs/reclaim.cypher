// Jobs whose worker died (the lease ran out) go back to the queue, or fail once their
// attempts are spent (a job that kills its worker every time is poison). The lease is read
// again under the node's lock: a worker renewing it meanwhile keeps its job. The failed ones
// are returned, for their JOB_FAILED events.
MATCH (j:Job {state: 'running'})
WHERE j.lease_until <= $now
SET j._lock = true
REMOVE j._lock  // the write lock stays taken until commit
WITH j WHERE j.state = 'running' AND j.lease_until <= $now
SET j.state = CASE WHEN j.attempts >= $max_attempts THEN 'failed' ELSE 'queued' END,
    j.finished_at = CASE WHEN j.attempts >= $max_attempts THEN $now END,
    j.not_before = $now, j.updated_at = $now, j.lease_until = null,
    j.error = 'the worker stopped before finishing (lease expired)'
RETURN count(j) AS reclaimed,
       collect(CASE WHEN j.state = 'failed' THEN {ns: j.ns, id: j.id} END) AS failed
