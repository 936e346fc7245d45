// Redact episodes: the content (and the copy the next turn holds as its search context),
// the metadata, quotes of it on evidence links and its embedding go; the node, its place in
// the session, its provenance links and who redacted it when and why stay.
UNWIND $ids AS id
MATCH (e:Episode {ns: $ns, id: id})
WHERE e.redacted_at IS NULL
SET e.content = $placeholder, e.metadata = '{}', e.content_hash = 'redacted',
    e.redacted_at = $now, e.redacted_by = $actor, e.redaction_reason = $reason
REMOVE e.embedding, e:EmbedPending
WITH e
CALL (e) {
  OPTIONAL MATCH (e)<-[ev:EVIDENCED_BY]-(:Fact)
  REMOVE ev.quote
}
CALL (e) {
  OPTIONAL MATCH (e)-[:NEXT]->(next:Episode)
  WITH next WHERE next IS NOT NULL
  SET next.context = $placeholder, next:EmbedPending
}
RETURN count(e) AS redacted
