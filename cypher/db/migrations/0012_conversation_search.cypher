// Conversation-aware search (issue 15) and exact namespace scoping in Lucene (issue 16.6).
// - Every fulltext index uses the English analyzer (stop words, possessives, Porter stems:
//   "painting" finds "paints").
// - Each indexed node carries `ns_key`, its namespace as one opaque token: a phrase on the
//   tokenised `ns` also matched "evil/acme/bob" for "acme/bob", so other namespaces' data
//   crowded a namespace's candidates and leaked through what disappeared from them.
// - An episode is indexed with its `window` (previous, own and next turn, each with its
//   speaker) and its speaker (`actor`), so "what did Caroline paint?" can prefer Caroline's
//   turns without matching the turns that only address her.
// - `(:Actor {ns, key, name})`: the speakers of a namespace, to tell names in a query.
// The existing nodes get `ns_key`, windows and actors from graphmem's migration step for
// this file (graphmem/migration_steps.py), with progress, right after these statements.
DROP INDEX episode_text_with_context IF EXISTS;
DROP INDEX fact_text IF EXISTS;
DROP INDEX summary_text IF EXISTS;
DROP INDEX entity_names IF EXISTS;
CREATE FULLTEXT INDEX episode_search IF NOT EXISTS FOR (n:Episode) ON EACH [n.content, n.window, n.actor, n.ns_key] OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
CREATE FULLTEXT INDEX fact_search IF NOT EXISTS FOR (n:Fact) ON EACH [n.text, n.ns_key] OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
CREATE FULLTEXT INDEX summary_search IF NOT EXISTS FOR (n:Summary) ON EACH [n.text, n.ns_key] OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
CREATE FULLTEXT INDEX entity_search IF NOT EXISTS FOR (n:Entity|Alias) ON EACH [n.name, n.ns_key] OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
CREATE CONSTRAINT actor_key IF NOT EXISTS FOR (n:Actor) REQUIRE (n.ns, n.key) IS UNIQUE;
CREATE INDEX actor_ns IF NOT EXISTS FOR (n:Actor) ON (n.ns);
