// How many jobs wait, run and failed, service-wide (the queue-depth gauge). Every job has
// `not_before` and a running one `lease_until`: the composite indexes serve each count.
RETURN COUNT { MATCH (j:Job) WHERE j.state = 'queued' AND j.not_before IS NOT NULL } AS queued,
       COUNT { MATCH (j:Job) WHERE j.state = 'running' AND j.lease_until IS NOT NULL }
         AS running,
       COUNT { MATCH (j:Job) WHERE j.state = 'failed' AND j.not_before IS NOT NULL } AS failed
