// Copies of one statement learned apart ($pairs: {kept, joined}, resolution.reconcile): the
// joined copy's evidence (turns held here, and references to turns held on devices) becomes
// the kept fact's too, so one fact carries what both were said in.
UNWIND $pairs AS pair
MATCH (kept:Fact {ns: $ns, id: pair.kept}) USING INDEX SEEK kept:Fact(id)
MATCH (joined:Fact {ns: $ns, id: pair.joined}) USING INDEX SEEK joined:Fact(id)
CALL (kept, joined) {
  MATCH (joined)-[r:EVIDENCED_BY]->(e)
  MERGE (kept)-[n:EVIDENCED_BY]->(e) ON CREATE SET n = properties(r)
  RETURN count(n) AS turns
}
CALL (kept, joined) {
  MATCH (joined)-[r:EVIDENCED_BY_TURN]->(t)
  MERGE (kept)-[n:EVIDENCED_BY_TURN]->(t) ON CREATE SET n = properties(r)
  RETURN count(n) AS references
}
RETURN sum(turns + references) AS joined
