// A running job's heartbeat: its worker extends the lease while it still holds the attempt.
MATCH (j:Job {ns: $ns, id: $id})
SET j._lock = true
REMOVE j._lock  // the write lock stays taken until commit
WITH j WHERE j.state = 'running' AND j.worker = $worker AND j.attempts = $attempt
SET j.lease_until = $lease_until
RETURN j.id AS id
