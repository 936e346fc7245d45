// Lucene (BM25) fulltext indexes for search. Each also indexes `ns`, so a search is scoped to
// its namespace inside Lucene (a phrase on the ns field), not by filtering a global top-k.
CREATE FULLTEXT INDEX episode_text IF NOT EXISTS FOR (n:Episode) ON EACH [n.content, n.ns];
CREATE FULLTEXT INDEX fact_text IF NOT EXISTS FOR (n:Fact) ON EACH [n.text, n.ns];
CREATE FULLTEXT INDEX summary_text IF NOT EXISTS FOR (n:Summary) ON EACH [n.text, n.ns];
CREATE FULLTEXT INDEX entity_names IF NOT EXISTS FOR (n:Entity|Alias) ON EACH [n.name, n.ns];
