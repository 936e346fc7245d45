"""Neo4j: the connection, named Cypher statements, the driver's fast paths, migrations."""
