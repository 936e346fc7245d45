// A summary with what it covers (episodes and summaries) and the facts it cites.
CREATE (s:Summary:EmbedPending {
  id: $id, ns: $ns, ns_key: $ns_key, session_id: $session_id, scope: $scope, level: $level, text: $text,
  covers_from: $covers_from, covers_to: $covers_to, created_at: $now, stale: false,
  producer: $producer
})
WITH s
CALL (s) {
  UNWIND $episode_ids AS covered_id
  MATCH (e:Episode {ns: $ns, id: covered_id}) USING INDEX SEEK e:Episode(id)
  CREATE (s)-[:SUMMARIZES]->(e)
}
CALL (s) {
  UNWIND $summary_ids AS covered_id
  MATCH (c:Summary {ns: $ns, id: covered_id}) USING INDEX SEEK c:Summary(id)
  CREATE (s)-[:SUMMARIZES]->(c)
}
CALL (s) {
  UNWIND $fact_ids AS cited_id
  MATCH (f:Fact {ns: $ns, id: cited_id}) USING INDEX SEEK f:Fact(id)
  CREATE (s)-[:CITES]->(f)
}
RETURN s {.*, embedding: null} AS summary
