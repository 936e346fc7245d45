// A fact is an edge (subject)-[:PREDICATE]->(object) — the type passed as a parameter and
// validated before — plus one (:Fact) statement node carrying the record and provenance.
// A fact created already superseded (a late, weaker claim) is history from the start.
CYPHER replan=skip  // the write path keeps its plan: see graphmem/db/statements.py
UNWIND $facts AS f
MATCH (s:Entity {ns: $ns, id: f.subject_id}) USING INDEX SEEK s:Entity(id)
OPTIONAL MATCH (oe:Entity {ns: $ns, id: f.object_id}) USING INDEX SEEK oe:Entity(id)
OPTIONAL MATCH (ov:Value {ns: $ns, id: f.object_id}) USING INDEX SEEK ov:Value(id)
WITH f, s, coalesce(oe, ov) AS o
CREATE (fact:Fact:EmbedPending {
  id: f.id, ns: $ns, ns_key: $ns_key, identity: f.identity, subject: f.subject, predicate: f.predicate,
  object: f.object, object_kind: f.object_kind, text: f.text, confidence: f.confidence,
  source: f.source, asserted_by: f.asserted_by, valid_from: f.valid_from,
  valid_to: f.valid_to, stated_valid_from: f.stated_valid_from,
  stated_valid_to: f.stated_valid_to, recorded_at: $now, status: f.status,
  retracted_at: CASE f.status WHEN 'superseded' THEN $now END
})
CREATE (fact)-[:SUBJECT]->(s)
CREATE (fact)-[:OBJECT]->(o)
CREATE (s)-[edge:$(f.rel_type)]->(o)
SET edge.fact_id = f.id, edge.valid_from = f.valid_from, edge.valid_to = f.valid_to,
    edge.status = f.status, edge.confidence = f.confidence
WITH fact, f
CALL (fact, f) {
  UNWIND f.evidence AS episode_id
  MATCH (ep:Episode {ns: $ns, id: episode_id}) USING INDEX SEEK ep:Episode(id)
  CREATE (fact)-[:EVIDENCED_BY {at: $now}]->(ep)
}
RETURN count(fact) AS created
