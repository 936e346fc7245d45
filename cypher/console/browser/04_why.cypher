// Why it believes that
// Every fact edge has a (:Fact) statement node (same fact_id) carrying the record: who said
// it, how sure, since when, and EVIDENCED_BY links to the episodes it came from. A turn
// held on another device (federated memory) is no episode here: EVIDENCED_BY_TURN links to
// a (:DeviceTurn) reference, listed as held on that device, when said, its content hash.
MATCH (e:Entity {ns: $ns})-[fact]->(other)
WHERE (e.key = toLower(trim($entity))
       OR EXISTS { (:Alias {ns: $ns, key: toLower(trim($entity))})-[:ALIAS_OF]->(e) })
  AND fact.fact_id IS NOT NULL AND fact.status IN ['active', 'disputed']
MATCH (statement:Fact {ns: $ns, id: fact.fact_id})
OPTIONAL MATCH (statement)-[evidence:EVIDENCED_BY]->(episode:Episode)
RETURN statement.text AS fact, statement.source AS source, statement.confidence AS confidence,
       statement.recorded_at AS since, collect(episode.content) AS said,
       [(statement)-[:EVIDENCED_BY_TURN]->(t:DeviceTurn) |
        'held on device ' + t.device + ', said ' + coalesce(toString(t.said_at), 'when unknown')
        + ', content hash ' + coalesce(t.content_hash, 'unknown')] AS held_elsewhere
