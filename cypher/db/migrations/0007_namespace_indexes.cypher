// Single-property namespace indexes: composite (ns, x) indexes only serve queries that
// constrain every property, so "all of a namespace's facts / summaries / conflicts" scanned
// the whole label across namespaces (found by tests/test_query_plans.py).
CREATE INDEX episode_ns IF NOT EXISTS FOR (n:Episode) ON (n.ns);
CREATE INDEX fact_ns IF NOT EXISTS FOR (n:Fact) ON (n.ns);
CREATE INDEX summary_ns IF NOT EXISTS FOR (n:Summary) ON (n.ns);
CREATE INDEX summary_ns_session IF NOT EXISTS FOR (n:Summary) ON (n.ns, n.session_id);
CREATE INDEX conflict_ns IF NOT EXISTS FOR (n:Conflict) ON (n.ns);
CREATE INDEX predicate_policy_ns IF NOT EXISTS FOR (n:PredicatePolicy) ON (n.ns);
CREATE INDEX entity_merge_ns IF NOT EXISTS FOR (n:EntityMerge) ON (n.ns);
