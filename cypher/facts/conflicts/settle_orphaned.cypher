// Open conflicts whose believed candidates no longer clash (no two different statements with
// overlapping validity) settle by themselves. Then every believed fact still marked disputed
// but held by no open conflict is released back to active.
CALL () {
  // The open conflicts through the (ns, status, created_at) index: a namespace's resolved
  // conflicts pile up, and the (ns) index would read them all.
  MATCH (c:Conflict {ns: $ns, status: 'open'}) USING INDEX SEEK c:Conflict(ns, status, created_at)
  WHERE c.created_at IS NOT NULL
  CALL (c) {
    OPTIONAL MATCH (c)-[:CANDIDATE]->(a:Fact), (c)-[:CANDIDATE]->(b:Fact)
    WHERE a.retracted_at IS NULL AND b.retracted_at IS NULL AND a.identity < b.identity
      AND (a.valid_from IS NULL OR b.valid_to IS NULL OR a.valid_from < b.valid_to)
      AND (b.valid_from IS NULL OR a.valid_to IS NULL OR b.valid_from < a.valid_to)
    RETURN count(a) AS clashes
  }
  WITH c, clashes
  WHERE clashes = 0
  SET c.status = 'resolved', c.resolved_at = $now,
      c.reason = 'its candidates no longer clash (superseded, retracted or narrowed)'
  RETURN collect(c.id) AS closed
}
CALL () {
  MATCH (f:Fact {ns: $ns, status: 'disputed'})-[:SUBJECT]->(s)
  USING INDEX SEEK f:Fact(ns, status)
  WHERE f.retracted_at IS NULL
    AND NOT EXISTS { (f)<-[:CANDIDATE]-(c) WHERE c.status = 'open' }  // c: a Conflict
  SET f.status = 'active'
  WITH f, s
  MATCH (f)-[:OBJECT]->(o)
  MATCH (s)-[edge {fact_id: f.id}]->(o)  // between its two ends: not every edge of a hub
  SET edge.status = 'active'
  RETURN count(f) AS released
}
RETURN closed, released
