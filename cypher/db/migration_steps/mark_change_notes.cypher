// Migration 0022: mark graphmem's notes of changes written before `note` existed. A note is
// an observation without session or externalId whose metadata is graphmem's mark (stored
// plain), or — its metadata sealed, so unreadable here — one a retraction points to or a
// correction cites as evidence (those are the only two places graphmem writes notes).
MATCH (e:Episode {kind: 'observation'})
WHERE e.note IS NULL AND e.session_id IS NULL AND e.external_id IS NULL
  AND (e.metadata = '{"by": "graphmem", "change": true}'
       OR EXISTS { (:Fact)-[:RETRACTED_IN]->(e) }
       OR EXISTS { (:Fact {source: 'user_correction'})-[:EVIDENCED_BY]->(e) })
CALL (e) {
  SET e.note = true
} IN TRANSACTIONS OF 5000 ROWS
