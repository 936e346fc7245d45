// Episodes are embedded with their speaker's name now ("Caroline: I went to the support
// group", retrieval/embeddings.embedded_text). No schema changes: the data step
// (graphmem/db/migration_steps.py, cypher/migration_steps/requeue_spoken.cypher) queues the
// embedded episodes that have a speaker again, and the worker re-embeds them.
