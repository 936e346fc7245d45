// What archiving these episodes moves out of the graph: content, metadata and the copies of
// neighbouring turns kept for search (as stored: sealed when encryption is on). Episodes
// already archived or redacted are left out, and, when the archived turn is to stay
// findable, those not embedded yet (a later sweep takes them, once their vector is made).
UNWIND $ids AS id
MATCH (e:Episode {ns: $ns, id: id}) USING INDEX SEEK e:Episode(id)
WHERE e.archived_at IS NULL AND e.redacted_at IS NULL
  AND (NOT $keep_index OR NOT e:EmbedPending)
RETURN e.id AS id, e.content AS content, e.metadata AS metadata, e.context AS context,
       e.context_actor AS context_actor, e.window AS window, e.content_hash AS content_hash
