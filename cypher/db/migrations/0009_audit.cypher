// The audit log of memory-changing operations.
CREATE CONSTRAINT audit_event_id IF NOT EXISTS FOR (n:AuditEvent) REQUIRE n.id IS UNIQUE;
CREATE INDEX audit_event_ns IF NOT EXISTS FOR (n:AuditEvent) ON (n.ns);
