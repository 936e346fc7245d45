// Trace one fact to its source
// The statement node with its evidence episodes, the sessions they belong to, the turns
// held on other devices (a (:DeviceTurn) captioned "held on <device>": the turn is not
// missing, it never left its device), the summaries citing it, and the facts it replaced or
// was replaced by. Set :param fact => 'fact_…' (ids are shown by the previous query's
// statement nodes and by the GraphQL API).
MATCH (f:Fact {ns: $ns, id: $fact})
OPTIONAL MATCH evidence = (f)-[:EVIDENCED_BY]->(:Episode)-[:IN_SESSION]->(:Session)
OPTIONAL MATCH held = (f)-[:EVIDENCED_BY_TURN]->(:DeviceTurn)
OPTIONAL MATCH cited = (:Summary)-[:CITES]->(f)
// Paths multiply (a cycle's, an imported one's, without end): ten hops, the first 100 rows.
OPTIONAL MATCH history = (f)-[:SUPERSEDES*1..10]-(:Fact)
RETURN f, evidence, held, cited, history,
       [(f)-[:EVIDENCED_BY_TURN]->(t:DeviceTurn) | 'held on device ' + t.device] AS held_on
LIMIT 100
