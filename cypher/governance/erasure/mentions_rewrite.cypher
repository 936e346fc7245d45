// Rewrite turns whose text named an erased entity ($rows: {id, content, metadata,
// content_hash, context, context_actor, window, redacted}, as stored). A redacted one
// (`redacted`) keeps its node, time, session place and provenance; its embedding, made from
// the old words, goes until the worker embeds it again, and so do the quotes of it on
// evidence links. An archived one comes back into the graph (its object is deleted once this
// commits): with its mentions replaced, or as it was when only its copy of a neighbour named
// the entity (the session's relink rewrites that copy).
UNWIND $rows AS row
MATCH (e:Episode {ns: $ns, id: row.id}) USING INDEX SEEK e:Episode(id)
SET e.content = row.content, e.metadata = row.metadata, e.content_hash = row.content_hash,
    e.context = row.context, e.context_actor = row.context_actor, e.window = row.window
REMOVE e.archived_at, e.archive_key, e.archive_bytes
WITH e, row
CALL (e, row) {
  WITH e, row WHERE row.redacted
  SET e.mentions_redacted_at = $now, e.mentions_redacted_by = $actor, e:EmbedPending
  REMOVE e.embedding
  WITH e
  OPTIONAL MATCH (e)<-[ev:EVIDENCED_BY]-(:Fact)
  REMOVE ev.quote
}
CALL (e) {
  WITH e WHERE e.embedding IS NULL
  SET e:EmbedPending
}
RETURN count(e) AS rewritten,
       collect(CASE WHEN e.session_id IS NOT NULL
               THEN {session_id: e.session_id, occurred_at: e.occurred_at} END) AS sessions
