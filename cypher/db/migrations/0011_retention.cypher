// Retention policies: one per namespace, episode kind and sensitivity.
CREATE CONSTRAINT retention_policy_key IF NOT EXISTS FOR (n:RetentionPolicy) REQUIRE (n.ns, n.key) IS UNIQUE;
CREATE INDEX retention_policy_ns IF NOT EXISTS FOR (n:RetentionPolicy) ON (n.ns);
