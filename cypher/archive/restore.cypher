// Bring archived episodes' content back into the graph (rehydrate); an episode without an
// embedding is embedded again by the worker.
UNWIND $rows AS row
MATCH (e:Episode {ns: $ns, id: row.id}) USING INDEX SEEK e:Episode(id)
WHERE e.archive_key = row.key
SET e.content = row.content, e.metadata = row.metadata, e.context = row.context,
    e.context_actor = row.context_actor, e.window = row.window
REMOVE e.archived_at, e.archive_key, e.archive_bytes
WITH e
CALL (e) {
  WITH e WHERE e.embedding IS NULL
  SET e:EmbedPending
}
RETURN collect(e.id) AS restored
