// What `summaries/mark_stale` would withdraw for these changed facts and episodes, read
// without writing (a subject erasure's dry run): the summaries covering or citing them and
// every summary built on those, up to 32 levels above.
UNWIND $changed_ids AS changed_id
CALL (changed_id) {
  MATCH (changed:Fact {ns: $ns, id: changed_id}) USING INDEX SEEK changed:Fact(id)
  RETURN changed
  UNION
  MATCH (changed:Episode {ns: $ns, id: changed_id}) USING INDEX SEEK changed:Episode(id)
  RETURN changed
}
OPTIONAL MATCH (direct)-[:SUMMARIZES|CITES]->(changed)
WHERE direct.ns = $ns
WITH collect(DISTINCT direct) AS directs
UNWIND directs AS d
OPTIONAL MATCH (above)-[:SUMMARIZES*1..32]->(d)
WHERE above.ns = $ns
WITH DISTINCT directs, above
WITH directs, collect(above) AS aboves
UNWIND directs + aboves AS s
WITH DISTINCT s WHERE s IS NOT NULL
RETURN s.id AS id, s.text AS text, s.session_id AS session_id
ORDER BY id
