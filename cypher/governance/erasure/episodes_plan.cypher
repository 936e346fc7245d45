// What erasing these episodes touches: their sessions (to relink), the facts whose only
// evidence they are (to retract; not a pinned one: a user asked to always remember it),
// those facts' entities (to lock), their content (to verify afterwards that no copy of it is
// left), the archive objects of archived ones (to delete once the graph is done) and their
// speakers (forgotten with their last turn).
UNWIND $ids AS id
MATCH (e:Episode {ns: $ns, id: id})
OPTIONAL MATCH (e)<-[:EVIDENCED_BY]-(f:Fact {ns: $ns})
WHERE f.retracted_at IS NULL AND f.pinned_at IS NULL
  AND NOT EXISTS { MATCH (f)-[:EVIDENCED_BY]->(other) WHERE NOT other.id IN $ids }
OPTIONAL MATCH (f)-[:SUBJECT|OBJECT]->(x:Entity)
RETURN collect(DISTINCT {session_id: e.session_id, occurred_at: e.occurred_at}) AS sessions,
       collect(DISTINCT f.id) AS orphaned, collect(DISTINCT x.id) AS entities,
       collect(DISTINCT e.content) AS contents, collect(DISTINCT e.archive_key) AS archived,
       collect(DISTINCT e.actor) AS actors
