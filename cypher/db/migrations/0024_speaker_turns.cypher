// A speaker is forgotten with the erasure of their last turn (cypher/erasure/episodes_delete):
// whether any turn of theirs is left is a seek on the turns' speaker names, not a scan of
// the namespace.
CREATE INDEX episode_actor IF NOT EXISTS FOR (n:Episode) ON (n.ns, n.actor);
