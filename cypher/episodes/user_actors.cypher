// Who speaks the user's turns of a namespace, among its newest $scan turns of any session:
// when one actor alone does, "I" in a question asked outside a session stands for them.
MATCH (e:Episode {ns: $ns}) USING INDEX e:Episode(ns, occurred_at)
WHERE e.occurred_at IS NOT NULL
WITH e ORDER BY e.occurred_at DESC LIMIT $scan
WITH e WHERE e.kind = 'user_message' AND e.actor IS NOT NULL
RETURN DISTINCT e.actor AS actor
LIMIT $limit
