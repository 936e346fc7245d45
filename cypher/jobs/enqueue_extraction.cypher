// Queue extraction of freshly recorded episodes (in the recording transaction, so no
// acknowledged episode goes unprocessed), when the namespace has extraction switched on.
OPTIONAL MATCH (p:PipelineSwitches {ns: $ns})
WITH coalesce(p.extract, $extract_by_default) AS enabled
WHERE enabled
UNWIND $jobs AS job
CREATE (j:Job {id: job.id, ns: $ns, kind: 'extract', state: 'queued', attempts: 0,
               not_before: $now, created_at: $now, updated_at: $now})
WITH j, job
UNWIND job.episode_ids AS episode_id
MATCH (e:Episode {ns: $ns, id: episode_id})
CREATE (j)-[:CONCERNS]->(e)
RETURN count(DISTINCT j) AS queued
