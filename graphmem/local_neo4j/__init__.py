"""The local Neo4j server graphmem runs when no external URI is configured."""

from graphmem.local_neo4j.server import LocalNeo4j, Status

__all__ = ["LocalNeo4j", "Status"]
