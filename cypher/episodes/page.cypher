// One page of episodes in time order, filtered, after a keyset cursor [occurred_at, seq, id].
MATCH (e:Episode {ns: $ns})
WHERE ($session_id IS NULL OR e.session_id = $session_id)
  AND ($from IS NULL OR e.occurred_at >= $from)
  AND ($to IS NULL OR e.occurred_at < $to)
  AND ($kinds IS NULL OR e.kind IN $kinds)
  AND ($actor IS NULL OR e.actor = $actor)
  AND ($text IS NULL OR toLower(e.content) CONTAINS toLower($text))
  AND ($after_t IS NULL OR e.occurred_at > $after_t
       OR (e.occurred_at = $after_t AND (e.seq > $after_seq
           OR (e.seq = $after_seq AND e.id > $after_id))))
RETURN e {.*, embedding: null} AS episode
ORDER BY e.occurred_at, e.seq, e.id
LIMIT $limit
