// Episodes are searched with the turn before them in their session (`context`, kept by the
// session relink): their own words weigh more, the context catches elliptic answers.
DROP INDEX episode_text IF EXISTS;
CREATE FULLTEXT INDEX episode_text_with_context IF NOT EXISTS FOR (n:Episode) ON EACH [n.content, n.context, n.ns];
