// A conversation, as recorded
// Episodes of one session linked by NEXT in time order: the lossless log everything else is
// derived from. Set :param session => 'the-session-id' first.
MATCH (s:Session {ns: $ns, session_id: $session})<-[:IN_SESSION]-(e:Episode)
WITH e ORDER BY e.occurred_at, e.seq LIMIT 50
OPTIONAL MATCH link = (e)-[:NEXT]->(:Episode)
RETURN e, link
