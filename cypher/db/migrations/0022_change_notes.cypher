// graphmem's own notes of changes (the observation a correction, retraction or forgetting
// writes) carry `note: true`, which search and recall leave out unless history is asked
// for. No schema change: the data step (cypher/migration_steps/mark_change_notes.cypher)
// marks the notes written before.
