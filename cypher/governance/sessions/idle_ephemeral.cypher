// Ephemeral sessions idle past their time to live, in every namespace (the worker's sweep).
MATCH (s:Session)
WHERE s.ephemeral_ttl_s IS NOT NULL
  AND s.updated_at + duration({seconds: s.ephemeral_ttl_s}) < $now
RETURN s.ns AS ns, s.session_id AS session_id
LIMIT $limit
