// After a merge: store recomputed identities, then fold facts that became duplicates into
// the oldest one. The duplicate is kept as history: superseded, linked by SUPERSEDES, its
// evidence also attached to the survivor.
UNWIND $identities AS i
MATCH (f:Fact {ns: $ns, id: i.id})
SET f.identity = i.identity
WITH count(*) AS reidentified
UNWIND $folds AS fold
MATCH (keep:Fact {ns: $ns, id: fold.keep})
MATCH (dup:Fact {ns: $ns, id: fold.dup})
SET dup.status = 'superseded', dup.reason = $reason, dup.retracted_at = $now,
    keep.confidence = CASE WHEN dup.confidence > keep.confidence THEN dup.confidence
                           ELSE keep.confidence END
CREATE (keep)-[:SUPERSEDES {at: $now, strategy: 'merge', actor: $actor, reason: $reason}]->(dup)
WITH keep, dup
CALL (keep, dup) {
  MATCH (dup)-[old:EVIDENCED_BY]->(ep:Episode)
  MERGE (keep)-[ev:EVIDENCED_BY]->(ep)
    ON CREATE SET ev.at = old.at, ev.quote = old.quote
}
CALL (dup) {
  MATCH (dup)-[:SUBJECT]->(s)-[r {fact_id: dup.id}]->()
  SET r.status = 'superseded'
}
CALL (keep) {
  MATCH (keep)-[:SUBJECT]->(s)-[r {fact_id: keep.id}]->()
  SET r.confidence = keep.confidence
}
RETURN count(dup) AS folded
