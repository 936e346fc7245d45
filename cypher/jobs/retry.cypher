// Run a failed job again now (or a waiting one without its backoff), with fresh attempts.
MATCH (j:Job {ns: $ns, id: $id})
WHERE j.state IN ['failed', 'queued']
SET j.state = 'queued', j.attempts = 0, j.not_before = $now, j.updated_at = $now,
    j.finished_at = null
RETURN j {.*} AS job
