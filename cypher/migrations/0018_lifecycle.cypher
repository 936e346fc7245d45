// Memory lifecycle (graphmem/facts/changes.py): a namespace's pinned facts, which recall
// offers every turn.
CREATE INDEX fact_pinned IF NOT EXISTS FOR (n:Fact) ON (n.ns, n.pinned_at);
