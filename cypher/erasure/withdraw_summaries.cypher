// Summaries of erased content are withdrawn, stale or not (an extractive summary copies
// sentences, a model paraphrases; a summary already stale still held the text): their text
// is replaced, their embedding dropped, and they stay stale with their links, so the
// worker rebuilds them from what remains. Runs before the erased nodes go (it walks from
// them), over the summaries covering or citing them and every summary built on those.
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
OPTIONAL MATCH (above)-[:SUMMARIZES*1..]->(d)
WHERE above.ns = $ns
WITH directs, collect(DISTINCT above) AS aboves
UNWIND directs + aboves AS s
WITH DISTINCT s WHERE s IS NOT NULL
SET s.text = $placeholder, s.stale = true, s.stale_since = coalesce(s.stale_since, $now),
    s.stale_reason = $reason, s.withdrawn_at = $now
REMOVE s.embedding, s:EmbedPending
RETURN count(s) AS withdrawn
