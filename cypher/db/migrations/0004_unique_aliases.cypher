// One alias node per namespace and key, enforced: concurrent MERGEs cannot create two.
// The constraint brings its own index, replacing the plain one from 0001.
DROP INDEX entity_alias IF EXISTS;
CREATE CONSTRAINT alias_key IF NOT EXISTS FOR (n:Alias) REQUIRE (n.ns, n.key) IS UNIQUE;
