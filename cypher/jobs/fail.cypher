// A failed attempt: back to the queue after a backoff, or `failed` once attempts run out.
// Only the attempt's holder may record it.
MATCH (j:Job {ns: $ns, id: $id})
WHERE j.state = 'running' AND j.worker = $worker AND j.attempts = $attempt
SET j.state = CASE WHEN j.attempts >= $max_attempts THEN 'failed' ELSE 'queued' END,
    j.not_before = $not_before, j.error = $error, j.updated_at = $now, j.lease_until = null,
    j.finished_at = CASE WHEN j.attempts >= $max_attempts THEN $now ELSE null END
RETURN j {.*} AS job
