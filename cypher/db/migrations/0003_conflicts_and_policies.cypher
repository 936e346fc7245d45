// Bi-temporal facts, conflicts and predicate policies.
CREATE CONSTRAINT conflict_id IF NOT EXISTS FOR (n:Conflict) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT predicate_policy_key IF NOT EXISTS FOR (n:PredicatePolicy) REQUIRE (n.ns, n.predicate) IS UNIQUE;
CREATE INDEX conflict_status IF NOT EXISTS FOR (n:Conflict) ON (n.ns, n.status, n.created_at);
CREATE INDEX fact_retracted IF NOT EXISTS FOR (n:Fact) ON (n.ns, n.retracted_at);
