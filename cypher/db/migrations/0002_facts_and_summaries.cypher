// Lookups for literal values, fact identity, and summary coverage.
CREATE CONSTRAINT value_id IF NOT EXISTS FOR (n:Value) REQUIRE n.id IS UNIQUE;
CREATE INDEX fact_identity IF NOT EXISTS FOR (n:Fact) ON (n.ns, n.identity);
CREATE INDEX fact_status IF NOT EXISTS FOR (n:Fact) ON (n.ns, n.status);
CREATE INDEX entity_ns IF NOT EXISTS FOR (n:Entity) ON (n.ns);
