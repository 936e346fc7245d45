"""Pipelines that turn the episodic log into facts and summaries in the background.

``worker`` claims jobs from the durable queue (``graphmem.jobs``) and runs them; ``selection``
decides which episodes are worth extracting; ``patterns`` (offline) and ``llm_extractor``
propose facts; ``extraction`` applies them through conflict resolution; ``summarising`` writes
summaries, offline (``extractive``) or through an LLM (``llm``, ``prompts``).
"""
