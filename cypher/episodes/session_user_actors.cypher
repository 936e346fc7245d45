// Who speaks the user's turns of one session (the actors of its newest $scan user messages):
// whom "I" in a question asked in that session stands for.
MATCH (e:Episode {ns: $ns, session_id: $session_id})
  USING INDEX e:Episode(ns, session_id, occurred_at)
WHERE e.occurred_at IS NOT NULL AND e.kind = 'user_message' AND e.actor IS NOT NULL
WITH e ORDER BY e.occurred_at DESC LIMIT $scan
RETURN DISTINCT e.actor AS actor
LIMIT $limit
