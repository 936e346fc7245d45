// Federated memory (graphmem sync): a turn held on a device is referenced on the shared side
// by its device's episode id, never copied; each label that syncs is paged by the sequence
// number of the push that last changed it (pulls read "changed after N"); what a shared
// service erased because a device erased the turns behind it stays as content-free
// tombstones (ids only) that pulls page through and that stop an older copy bringing it back.
CREATE CONSTRAINT device_turn_id IF NOT EXISTS FOR (n:DeviceTurn) REQUIRE n.id IS UNIQUE;
CREATE INDEX device_turn_ns IF NOT EXISTS FOR (n:DeviceTurn) ON (n.ns);
CREATE INDEX device_turn_sync IF NOT EXISTS FOR (n:DeviceTurn) ON (n.ns, n.sync_seq);
CREATE INDEX device_turn_device IF NOT EXISTS FOR (n:DeviceTurn) ON (n.ns, n.device);
CREATE INDEX fact_sync IF NOT EXISTS FOR (n:Fact) ON (n.ns, n.sync_seq);
CREATE INDEX entity_sync IF NOT EXISTS FOR (n:Entity) ON (n.ns, n.sync_seq);
CREATE INDEX value_sync IF NOT EXISTS FOR (n:Value) ON (n.ns, n.sync_seq);
CREATE INDEX alias_sync IF NOT EXISTS FOR (n:Alias) ON (n.ns, n.sync_seq);
CREATE INDEX summary_sync IF NOT EXISTS FOR (n:Summary) ON (n.ns, n.sync_seq);
CREATE INDEX conflict_sync IF NOT EXISTS FOR (n:Conflict) ON (n.ns, n.sync_seq);
CREATE INDEX policy_sync IF NOT EXISTS FOR (n:PredicatePolicy) ON (n.ns, n.sync_seq);
CREATE CONSTRAINT sync_state_key IF NOT EXISTS FOR (n:SyncState) REQUIRE (n.ns, n.peer) IS UNIQUE;
CREATE INDEX sync_state_ns IF NOT EXISTS FOR (n:SyncState) ON (n.ns);
CREATE INDEX sync_erased_ns IF NOT EXISTS FOR (n:SyncErased) ON (n.ns);
CREATE INDEX sync_erased_seq IF NOT EXISTS FOR (n:SyncErased) ON (n.ns, n.sync_seq);
CREATE INDEX sync_erased_id IF NOT EXISTS FOR (n:SyncErased) ON (n.ns, n.id);
