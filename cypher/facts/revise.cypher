// The part of a fact's validity it keeps after losing the rest: a new version with the same
// statement, evidence and edge type, linked (new)-[:REVISES]->(old). A revision of a
// disputed fact joins its open conflicts (and is disputed too).
UNWIND $revisions AS r
MATCH (old:Fact {ns: $ns, id: r.of})-[:SUBJECT]->(s) USING INDEX SEEK old:Fact(id)
MATCH (old)-[:OBJECT]->(o)
MATCH (s)-[old_edge {fact_id: old.id}]->(o)
CREATE (fact:Fact:EmbedPending)
SET fact = old {.*, id: r.id, valid_from: r.valid_from, valid_to: r.valid_to,
                status: r.status, recorded_at: $now, retracted_at: null, reason: null}
CREATE (fact)-[:REVISES {at: $now}]->(old)
CREATE (fact)-[:SUBJECT]->(s)
CREATE (fact)-[:OBJECT]->(o)
CREATE (s)-[edge:$(type(old_edge))]->(o)
SET edge.fact_id = r.id, edge.valid_from = r.valid_from, edge.valid_to = r.valid_to,
    edge.status = r.status, edge.confidence = old.confidence
WITH old, fact
CALL (old, fact) {
  MATCH (old)-[ev:EVIDENCED_BY]->(ep:Episode)
  CREATE (fact)-[:EVIDENCED_BY {at: ev.at, quote: ev.quote}]->(ep)
}
CALL (old, fact) {  // evidence held on another device (graphmem sync): a reference, no turn
  MATCH (old)-[ev:EVIDENCED_BY_TURN]->(turn:DeviceTurn)
  CREATE (fact)-[:EVIDENCED_BY_TURN {at: ev.at}]->(turn)
}
CALL (old, fact) {
  MATCH (c:Conflict {ns: $ns, status: 'open'})-[:CANDIDATE]->(old)
  CREATE (c)-[:CANDIDATE]->(fact)
  RETURN count(c) AS joined
}
WITH fact, joined
MATCH (s)<-[:SUBJECT]-(fact)-[:OBJECT]->(o)
MATCH (s)-[edge {fact_id: fact.id}]->(o)  // between its two ends: not every edge of a hub
SET fact.status = CASE WHEN joined > 0 THEN 'disputed' ELSE fact.status END,
    edge.status = fact.status
RETURN count(fact) AS revised
