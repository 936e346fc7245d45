// Identity and namespace-scoped lookups for the memory graph.
// Every statement is idempotent (IF NOT EXISTS); the file runs once and is then frozen.
CREATE CONSTRAINT episode_id IF NOT EXISTS FOR (n:Episode) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT episode_external_id IF NOT EXISTS FOR (n:Episode) REQUIRE (n.ns, n.external_id) IS UNIQUE;
CREATE CONSTRAINT session_key IF NOT EXISTS FOR (n:Session) REQUIRE (n.ns, n.session_id) IS UNIQUE;
CREATE CONSTRAINT entity_id IF NOT EXISTS FOR (n:Entity) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT entity_key IF NOT EXISTS FOR (n:Entity) REQUIRE (n.ns, n.key) IS UNIQUE;
CREATE CONSTRAINT value_key IF NOT EXISTS FOR (n:Value) REQUIRE (n.ns, n.datatype, n.key) IS UNIQUE;
CREATE CONSTRAINT fact_id IF NOT EXISTS FOR (n:Fact) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT summary_id IF NOT EXISTS FOR (n:Summary) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT api_key_id IF NOT EXISTS FOR (n:ApiKey) REQUIRE n.key_id IS UNIQUE;
CREATE CONSTRAINT api_key_hash IF NOT EXISTS FOR (n:ApiKey) REQUIRE n.hash IS UNIQUE;
CREATE INDEX episode_session_time IF NOT EXISTS FOR (n:Episode) ON (n.ns, n.session_id, n.occurred_at);
CREATE INDEX episode_time IF NOT EXISTS FOR (n:Episode) ON (n.ns, n.occurred_at);
CREATE INDEX entity_alias IF NOT EXISTS FOR (n:Alias) ON (n.ns, n.key);
CREATE INDEX fact_predicate IF NOT EXISTS FOR (n:Fact) ON (n.ns, n.predicate);
CREATE INDEX fact_recorded IF NOT EXISTS FOR (n:Fact) ON (n.ns, n.recorded_at);
CREATE INDEX summary_session IF NOT EXISTS FOR (n:Summary) ON (n.ns, n.session_id, n.created_at);
