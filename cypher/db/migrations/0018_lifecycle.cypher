// Memory lifecycle (graphmem/facts/changes.py): a namespace's pinned facts, which recall
// offers every turn.
CREATE INDEX fact_pinned IF NOT EXISTS FOR (n:Fact) ON (n.ns, n.pinned_at);
// One pruning policy per namespace (graphmem/governance/pruning.py).
CREATE CONSTRAINT pruning_policy_ns IF NOT EXISTS FOR (n:PruningPolicy) REQUIRE n.ns IS UNIQUE;
// Ephemeral sessions, found by the worker's sweep when idle past their time to live.
CREATE INDEX session_ephemeral IF NOT EXISTS FOR (n:Session) ON (n.ephemeral_ttl_s);
// Tiered storage (graphmem/archive): an archive object's episode, by its key.
CREATE INDEX episode_archive_key IF NOT EXISTS FOR (n:Episode) ON (n.ns, n.archive_key);
// Encryption with a key per namespace (graphmem/security/namespace_keys.py): one salt each.
CREATE CONSTRAINT namespace_key_ns IF NOT EXISTS FOR (n:NamespaceKey) REQUIRE n.ns IS UNIQUE;
