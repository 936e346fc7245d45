// What memory has since replaced of what recall offers as the answer ($fact_ids): the values
// of facts no longer believed (superseded or retracted) with an offered fact's subject and
// predicate, and which of recall's candidate turns ($episode_ids) are their evidence.
UNWIND $fact_ids AS fact_id
MATCH (offered:Fact {ns: $ns, id: fact_id})-[:SUBJECT]->(subject:Entity)
  USING INDEX SEEK offered:Fact(id)
MATCH (old:Fact)-[:SUBJECT]->(subject)
WHERE old.ns = $ns AND old.predicate = offered.predicate
  AND old.status IN ['superseded', 'retracted']
WITH DISTINCT old ORDER BY old.recorded_at DESC, old.id LIMIT 200  // a hub's long history
OPTIONAL MATCH (old)-[:EVIDENCED_BY]->(e:Episode)
WHERE e.id IN $episode_ids AND e.ns = $ns
RETURN collect(DISTINCT old.object) AS objects, collect(DISTINCT e.id) AS evidence
