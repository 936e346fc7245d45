// A closed ephemeral session leaves a tombstone, (:ClosedSession {ns, session_id, closed_at}),
// so a turn recorded after the close is refused instead of making the session again
// (governance/ephemeral.py); writers look it up by its key.
CREATE CONSTRAINT closed_session_key IF NOT EXISTS FOR (n:ClosedSession) REQUIRE (n.ns, n.session_id) IS UNIQUE;
// Erasing a namespace deletes its tombstones, and its verification counts them.
CREATE INDEX closed_session_ns IF NOT EXISTS FOR (n:ClosedSession) ON (n.ns);
