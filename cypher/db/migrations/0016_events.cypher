// The event outbox (graphmem/events/outbox.py): found by id, followed per namespace in time.
CREATE CONSTRAINT event_id IF NOT EXISTS FOR (n:Event) REQUIRE n.id IS UNIQUE;
CREATE INDEX event_ns_at IF NOT EXISTS FOR (n:Event) ON (n.ns, n.at);
CREATE INDEX event_at IF NOT EXISTS FOR (n:Event) ON (n.at);
