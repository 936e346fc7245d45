// Episodes not yet sealed under the current key (plaintext from before encryption, or an
// older key), a batch at a time: of one namespace, or (null) of the whole database.
MATCH (e:Episode)
WHERE ($ns IS NULL OR e.ns = $ns)
  AND e.redacted_at IS NULL AND e.archived_at IS NULL AND NOT e.content STARTS WITH $current
RETURN e {.*, embedding: null} AS episode
LIMIT $limit
