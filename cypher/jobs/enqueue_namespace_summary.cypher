// Queue a namespace (level-2) summary once enough fresh session summaries wait for one.
WITH COUNT { MATCH (m:Summary {ns: $ns, level: 1})
             WHERE NOT m.stale
               AND NOT EXISTS { MATCH (above:Summary)-[:SUMMARIZES]->(m) WHERE NOT above.stale } }
     AS waiting
WHERE waiting >= $fanout
  AND NOT EXISTS { MATCH (j:Job {ns: $ns, kind: 'summarize_namespace'})
                   WHERE j.state IN ['queued', 'running'] }
CREATE (j:Job {id: 'job_' + replace(randomUUID(), '-', ''), ns: $ns,
               kind: 'summarize_namespace', state: 'queued', attempts: 0, not_before: $now,
               created_at: $now, updated_at: $now})
RETURN j.id AS id
