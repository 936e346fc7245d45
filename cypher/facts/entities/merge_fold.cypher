// After a merge: store recomputed identities; a duplicate's evidence (and its confidence,
// when higher) also go to the fact it is folded into. Ending the duplicate is the caller's.
UNWIND $identities AS i
MATCH (f:Fact {ns: $ns, id: i.id})
SET f.identity = i.identity
WITH count(*) AS reidentified
UNWIND $folds AS fold
MATCH (keep:Fact {ns: $ns, id: fold.keep})
MATCH (dup:Fact {ns: $ns, id: fold.dup})
SET keep.confidence = CASE WHEN dup.confidence > keep.confidence THEN dup.confidence
                           ELSE keep.confidence END
WITH keep, dup
CALL (keep, dup) {
  MATCH (dup)-[old:EVIDENCED_BY]->(ep:Episode)
  MERGE (keep)-[ev:EVIDENCED_BY]->(ep)
    ON CREATE SET ev.at = old.at, ev.quote = old.quote
}
CALL (keep) {
  MATCH (keep)-[:SUBJECT]->(s)-[r {fact_id: keep.id}]->()
  SET r.confidence = keep.confidence
}
RETURN count(dup) AS folded
