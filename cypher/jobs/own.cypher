// First statement of a job's result transaction: lock the job and check this worker still
// holds this attempt. No row: the lease was lost, and the whole transaction is abandoned,
// so a job's results are written exactly once.
MATCH (j:Job {ns: $ns, id: $id})
SET j._lock = true
REMOVE j._lock  // the write lock stays taken until commit
WITH j WHERE j.state = 'running' AND j.worker = $worker AND j.attempts = $attempt
RETURN j.id AS id
