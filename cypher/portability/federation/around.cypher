// Sync: what resolving these facts ($ids) may have changed beside them: their subjects'
// (subject id, predicate) pairs to resolve, the conflicts naming them, and the summaries
// citing them (marked stale when a cited fact ends).
UNWIND $ids AS id
MATCH (f:Fact {ns: $ns, id: id})-[:SUBJECT]->(s) USING INDEX SEEK f:Fact(id)
RETURN collect({subject_id: s.id, predicate: f.predicate, id: id,
                conflicts: [(c:Conflict)-[:CANDIDATE]->(f) WHERE c.ns = $ns | c.id],
                summaries: [(m:Summary)-[:CITES]->(f) WHERE m.ns = $ns | m.id]}) AS rows
