// Summaries become stale when what they cover or cite changes (erasure, supersession,
// retraction), including summaries built on top of them. The walk starts from the changed
// facts or episodes (by id), not from the namespace's summaries.
UNWIND $changed_ids AS changed_id
CALL (changed_id) {
  MATCH (changed:Fact {ns: $ns, id: changed_id}) USING INDEX SEEK changed:Fact(id)
  RETURN changed
  UNION
  MATCH (changed:Episode {ns: $ns, id: changed_id}) USING INDEX SEEK changed:Episode(id)
  RETURN changed
}
OPTIONAL MATCH (direct)-[:SUMMARIZES|CITES]->(changed)  // direct: a Summary, by type
WHERE direct.ns = $ns
WITH collect(DISTINCT direct) AS directs
UNWIND directs AS d
OPTIONAL MATCH (above)-[:SUMMARIZES*1..]->(d)
WHERE above.ns = $ns
WITH directs, collect(DISTINCT above) AS aboves
UNWIND directs + aboves AS s
WITH DISTINCT s WHERE s IS NOT NULL AND NOT s.stale
SET s.stale = true, s.stale_since = $now, s.stale_reason = $reason
RETURN count(s) AS marked
