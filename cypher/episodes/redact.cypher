// Redact episodes: the content, the metadata, quotes of it on evidence links, its embedding
// and the event time read from its words go; the node, its place in the session, its provenance links and who redacted it
// when and why stay. The copies its neighbours hold for search (context, window) are
// rewritten by `episodes/relink` from the sessions returned here.
UNWIND $ids AS id
MATCH (e:Episode {ns: $ns, id: id})
WHERE e.redacted_at IS NULL
SET e.content = $placeholder, e.metadata = '{}', e.content_hash = 'redacted',
    e.redacted_at = $now, e.redacted_by = $actor, e.redaction_reason = $reason
REMOVE e.embedding, e:EmbedPending, e.event_start, e.event_end  // what its words told
WITH e
CALL (e) {
  OPTIONAL MATCH (e)<-[ev:EVIDENCED_BY]-(:Fact)
  REMOVE ev.quote
}
RETURN count(e) AS redacted,
       collect(CASE WHEN e.session_id IS NOT NULL
               THEN {session_id: e.session_id, occurred_at: e.occurred_at} END) AS sessions
