// Federated memory's erasure: what a shared service erased because a device erased the turns
// behind it, kept as content-free tombstones (ids only) that the devices' pulls page through
// by sequence number and that stop an older copy from bringing it back.
CREATE INDEX sync_erased_seq IF NOT EXISTS FOR (n:SyncErased) ON (n.ns, n.sync_seq);
CREATE INDEX sync_erased_id IF NOT EXISTS FOR (n:SyncErased) ON (n.ns, n.id);
CREATE INDEX device_turn_device IF NOT EXISTS FOR (n:DeviceTurn) ON (n.ns, n.device);
