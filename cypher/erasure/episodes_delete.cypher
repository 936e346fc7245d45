// Retract the facts left without evidence (their record stays, content-free of the erased
// episode), then delete the episodes with every relationship they had.
CALL () {
  UNWIND $orphaned AS fact_id
  MATCH (f:Fact {ns: $ns, id: fact_id})-[:SUBJECT]->(s)
  SET f.status = 'retracted', f.retracted_at = $now, f.ended_by = $actor,
      f.reason = 'its only evidence was erased'
  WITH f, s
  MATCH (s)-[edge {fact_id: f.id}]->()
  SET edge.status = 'retracted'
  RETURN count(f) AS retracted
}
CALL () {
  UNWIND $ids AS id
  MATCH (e:Episode {ns: $ns, id: id})
  DETACH DELETE e
  RETURN count(*) AS erased
}
RETURN erased, retracted
