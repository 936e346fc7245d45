// Archive episodes whose content is safely in the archive store: the content goes (a
// placeholder stays), the node keeps its id, time, session position, content hash and every
// provenance link, with where its content went. Its embedding stays when the policy keeps the
// turn findable (vector search then still finds it), else it goes too. An episode changed
// since it was read (redacted, erased, archived by another sweep) is left alone.
UNWIND $rows AS row
MATCH (e:Episode {ns: $ns, id: row.id}) USING INDEX SEEK e:Episode(id)
WHERE e.archived_at IS NULL AND e.redacted_at IS NULL AND e.content_hash = row.content_hash
SET e.content = $placeholder, e.metadata = '{}', e.archived_at = $now,
    e.archive_key = row.key, e.archive_bytes = row.bytes
REMOVE e.context, e.context_actor, e.window
WITH e
CALL (e) {
  WITH e WHERE NOT $keep_index
  REMOVE e.embedding, e:EmbedPending
}
RETURN collect(e.id) AS archived
