// Summaries become stale when what they cover or cite changes (erasure, supersession,
// retraction), including summaries built on top of them.
OPTIONAL MATCH (direct:Summary {ns: $ns})-[:SUMMARIZES|CITES]->(changed)
WHERE changed.id IN $changed_ids
WITH collect(DISTINCT direct) AS directs
UNWIND directs AS d
OPTIONAL MATCH (above:Summary {ns: $ns})-[:SUMMARIZES*1..]->(d)
WITH directs, collect(DISTINCT above) AS aboves
UNWIND directs + aboves AS s
WITH DISTINCT s WHERE s IS NOT NULL AND NOT s.stale
SET s.stale = true, s.stale_since = $now, s.stale_reason = $reason
RETURN count(s) AS marked
