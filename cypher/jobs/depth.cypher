// How many jobs wait, run and failed, service-wide (the queue-depth gauge).
RETURN COUNT { MATCH (j:Job {state: 'queued'}) } AS queued,
       COUNT { MATCH (j:Job {state: 'running'}) } AS running,
       COUNT { MATCH (j:Job {state: 'failed'}) } AS failed
