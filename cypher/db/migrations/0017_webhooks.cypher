// Webhooks (graphmem/events/webhooks.py): found by id and per namespace; deliveries claimed
// when due, and pruned with the events. Events by namespace alone: its erasure.
CREATE INDEX event_ns IF NOT EXISTS FOR (n:Event) ON (n.ns);
CREATE CONSTRAINT webhook_id IF NOT EXISTS FOR (n:Webhook) REQUIRE n.id IS UNIQUE;
CREATE INDEX webhook_ns IF NOT EXISTS FOR (n:Webhook) ON (n.ns);
CREATE CONSTRAINT delivery_id IF NOT EXISTS FOR (n:Delivery) REQUIRE n.id IS UNIQUE;
CREATE INDEX delivery_state_next IF NOT EXISTS FOR (n:Delivery) ON (n.state, n.next_at);
CREATE INDEX delivery_created IF NOT EXISTS FOR (n:Delivery) ON (n.created_at);
CREATE INDEX delivery_ns IF NOT EXISTS FOR (n:Delivery) ON (n.ns);
