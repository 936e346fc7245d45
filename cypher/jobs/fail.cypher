// A failed attempt: back to the queue after a backoff, or `failed` once attempts run out.
// Only the attempt's holder may record it (checked under the node's lock).
MATCH (j:Job {ns: $ns, id: $id})
SET j._lock = true
REMOVE j._lock  // the write lock stays taken until commit
WITH j WHERE j.state = 'running' AND j.worker = $worker AND j.attempts = $attempt
SET j.state = CASE WHEN j.attempts >= $max_attempts THEN 'failed' ELSE 'queued' END,
    j.not_before = $not_before, j.error = $error, j.updated_at = $now, j.lease_until = null,
    j.finished_at = CASE WHEN j.attempts >= $max_attempts THEN $now ELSE null END
RETURN j {.*} AS job
