// A worker stopping (shutdown, deploy) hands its job back at once instead of letting the
// lease run out; the attempt does not count.
MATCH (j:Job {ns: $ns, id: $id})
SET j._lock = true
REMOVE j._lock  // the write lock stays taken until commit
WITH j WHERE j.state = 'running' AND j.worker = $worker AND j.attempts = $attempt
SET j.state = 'queued', j.attempts = j.attempts - 1, j.not_before = $now, j.updated_at = $now,
    j.lease_until = null
RETURN j.id AS id
