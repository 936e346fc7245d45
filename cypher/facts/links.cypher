// How each fact relates to the others (DataLoader): what it superseded and what superseded
// it (with strategy, reason, when, by whom), the version it narrows, its open conflicts.
UNWIND $fact_ids AS fact_id
MATCH (f:Fact {ns: $ns, id: fact_id}) USING INDEX SEEK f:Fact(id)
CALL (f) {
  OPTIONAL MATCH (f)-[l:SUPERSEDES]->(older:Fact)
  WITH l, older ORDER BY l.at DESC
  RETURN collect(CASE WHEN older IS NOT NULL THEN {fact: older {.*, embedding: null}, strategy: l.strategy,
         reason: l.reason, at: l.at, actor: l.actor} END) AS supersedes
}
CALL (f) {
  OPTIONAL MATCH (newer:Fact)-[l:SUPERSEDES]->(f)
  WITH l, newer ORDER BY l.at DESC
  RETURN collect(CASE WHEN newer IS NOT NULL THEN {fact: newer {.*, embedding: null}, strategy: l.strategy,
         reason: l.reason, at: l.at, actor: l.actor} END) AS superseded_by
}
CALL (f) {
  OPTIONAL MATCH (f)-[:REVISES]->(original:Fact)
  RETURN original {.*, embedding: null} AS revises LIMIT 1
}
CALL (f) {
  RETURN [(c)-[:CANDIDATE]->(f) WHERE c.ns = $ns AND c.status = 'open' | c.id] AS conflicts
}
RETURN fact_id, supersedes, superseded_by, revises, conflicts
