// Trace one fact to its source
// The statement node with its evidence episodes, the sessions they belong to, the summaries
// citing it, and the facts it replaced or was replaced by. Set :param fact => 'fact_…'
// (ids are shown by the previous query's statement nodes and by the GraphQL API).
MATCH (f:Fact {ns: $ns, id: $fact})
OPTIONAL MATCH evidence = (f)-[:EVIDENCED_BY]->(:Episode)-[:IN_SESSION]->(:Session)
OPTIONAL MATCH cited = (:Summary)-[:CITES]->(f)
// Paths multiply (a cycle's, an imported one's, without end): ten hops, the first 100 rows.
OPTIONAL MATCH history = (f)-[:SUPERSEDES*1..10]-(:Fact)
RETURN f, evidence, cited, history
LIMIT 100
