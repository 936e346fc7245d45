// Summaries and what they stand for
// A summary SUMMARIZES episodes (or lower-level summaries) and CITES the facts it relies
// on; a stale one is flagged when something it covers changes.
MATCH (s:Summary {ns: $ns})
WITH s ORDER BY s.created_at DESC LIMIT 10
OPTIONAL MATCH covered = (s)-[:SUMMARIZES]->()
OPTIONAL MATCH cited = (s)-[:CITES]->(:Fact)
RETURN s, covered, cited
