// Disputes waiting for a decision
// When a predicate's policy cannot decide between two values (or is manual), both facts stay
// believed, flagged disputed, as CANDIDATEs of an open (:Conflict); resolveConflict settles it.
MATCH (c:Conflict {ns: $ns})-[candidate:CANDIDATE]->(f:Fact)
OPTIONAL MATCH won = (f)-[:SUPERSEDES]->(:Fact)
RETURN c, candidate, f, won
LIMIT 100
