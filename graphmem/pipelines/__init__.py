"""Pipelines that turn the episodic log into facts and summaries in the background.

``jobs`` is the durable queue in Neo4j, ``worker`` claims and runs its jobs; ``selection``
decides which episodes are worth extracting; ``patterns`` (offline) and ``llm_extractor``
propose facts; ``extraction`` applies them through conflict resolution; ``extractive`` (offline)
and ``llm_summariser`` write summaries, applied by ``summarising``.
"""
