"""graphmem: memory for AI agents — episodes, facts and summaries in one Neo4j graph."""

__version__ = "0.2.0"
