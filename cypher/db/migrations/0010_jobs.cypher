// The durable job queue of the extraction and summarisation pipelines, and per-namespace
// pipeline switches.
CREATE CONSTRAINT job_id IF NOT EXISTS FOR (n:Job) REQUIRE n.id IS UNIQUE;
CREATE INDEX job_claim IF NOT EXISTS FOR (n:Job) ON (n.state, n.not_before);
CREATE INDEX job_lease IF NOT EXISTS FOR (n:Job) ON (n.state, n.lease_until);
CREATE INDEX job_ns IF NOT EXISTS FOR (n:Job) ON (n.ns);
CREATE INDEX job_ns_state IF NOT EXISTS FOR (n:Job) ON (n.ns, n.state);
CREATE CONSTRAINT pipeline_switches_ns IF NOT EXISTS FOR (n:PipelineSwitches) REQUIRE n.ns IS UNIQUE;
CREATE INDEX summary_ns_level IF NOT EXISTS FOR (n:Summary) ON (n.ns, n.level);
CREATE INDEX summary_stale IF NOT EXISTS FOR (n:Summary) ON (n.stale);
