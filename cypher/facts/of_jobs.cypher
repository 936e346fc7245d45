// The facts each job produced (any status), for `Job.facts`.
UNWIND $ids AS id
MATCH (:Job {ns: $ns, id: id})-[:PRODUCED]->(f:Fact)
RETURN id AS job_id, f {.*, embedding: null} AS fact
ORDER BY f.recorded_at, f.id
