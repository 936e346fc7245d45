// Namespace indexes for the labels erasure walks that had only composite indexes.
CREATE INDEX alias_ns IF NOT EXISTS FOR (n:Alias) ON (n.ns);
CREATE INDEX value_ns IF NOT EXISTS FOR (n:Value) ON (n.ns);
CREATE INDEX session_ns IF NOT EXISTS FOR (n:Session) ON (n.ns);
CREATE INDEX erasure_receipt_id IF NOT EXISTS FOR (n:ErasureReceipt) ON (n.id);
