// Summaries become stale when what they cover or cite changes (erasure, supersession,
// retraction), including summaries built on top of them. The walk starts from the changed
// facts or episodes (by id), not from the namespace's summaries.
// With $withdrawn (erasure), every such summary, stale or not, also loses its text to that
// placeholder and its embedding: an extractive summary copies sentences, a model
// paraphrases, and a summary already stale still held the text. The worker rebuilds them
// from what remains. Counted: the summaries changed.
UNWIND $changed_ids AS changed_id
CALL (changed_id) {
  MATCH (changed:Fact {ns: $ns, id: changed_id}) USING INDEX SEEK changed:Fact(id)
  RETURN changed
  UNION
  MATCH (changed:Episode {ns: $ns, id: changed_id}) USING INDEX SEEK changed:Episode(id)
  RETURN changed
}
OPTIONAL MATCH (direct)-[:SUMMARIZES|CITES]->(changed)  // direct: a Summary, by type
WHERE direct.ns = $ns
WITH collect(DISTINCT direct) AS directs
UNWIND directs AS d
// Up to 32 levels above (a hierarchy of fan-out 5 reaches 5^32 episodes first). DISTINCT
// makes the walk breadth first, each summary once, so an imported SUMMARIZES cycle cannot
// multiply paths; no LIMIT, as every summary above must become stale, and there are no more
// than the namespace's summaries.
OPTIONAL MATCH (above)-[:SUMMARIZES*1..32]->(d)
WHERE above.ns = $ns
WITH DISTINCT directs, above
WITH directs, collect(above) AS aboves
UNWIND directs + aboves AS s
WITH DISTINCT s WHERE s IS NOT NULL AND (NOT s.stale OR $withdrawn IS NOT NULL)
SET s.stale_since = CASE WHEN s.stale THEN s.stale_since ELSE $now END,
    s.stale_reason = $reason, s.stale = true
WITH s
CALL (s) {
  WITH s WHERE $withdrawn IS NOT NULL
  SET s.text = $withdrawn, s.withdrawn_at = $now
  REMOVE s.embedding, s:EmbedPending
}
RETURN collect(s.id) AS marked
