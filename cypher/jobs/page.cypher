// A namespace's jobs, newest first, optionally in one state, after a keyset cursor.
MATCH (j:Job {ns: $ns})
WHERE ($state IS NULL OR j.state = $state)
  AND ($after_t IS NULL OR j.created_at < $after_t
       OR (j.created_at = $after_t AND j.id < $after_id))
RETURN j {.*, episodes: COUNT { (j)-[:CONCERNS]->(:Episode) }} AS job
ORDER BY j.created_at DESC, j.id DESC
LIMIT $limit
