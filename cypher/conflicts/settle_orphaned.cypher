// Open conflicts left with fewer than two believed candidates are settled: the survivor, if
// any, is no longer disputed (unless another open conflict still holds it).
MATCH (c:Conflict {ns: $ns, status: 'open'})
WHERE COUNT { (c)-[:CANDIDATE]->(f:Fact) WHERE f.retracted_at IS NULL } < 2
SET c.status = 'resolved', c.resolved_at = $now,
    c.reason = 'all but one candidate superseded or retracted'
WITH c
OPTIONAL MATCH (c)-[:CANDIDATE]->(f:Fact)-[:SUBJECT]->(s)
WHERE f.retracted_at IS NULL
  AND NOT EXISTS { (:Conflict {ns: $ns, status: 'open'})-[:CANDIDATE]->(f) }
SET f.status = 'active'
WITH f, s WHERE f IS NOT NULL
MATCH (s)-[edge {fact_id: f.id}]->()
SET edge.status = 'active'
RETURN count(f) AS settled
