// Retract the facts left without evidence (their record stays, content-free of the erased
// episode), delete the episodes with every relationship they had, then forget the speakers
// ($speakers: {key, names}, the names the erased turns gave them) left with no turn in the
// namespace under any of their names.
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
CALL () {
  UNWIND $speakers AS speaker
  MATCH (a:Actor {ns: $ns, key: speaker.key})
  WHERE NOT EXISTS {
    MATCH (e:Episode {ns: $ns}) USING INDEX SEEK e:Episode(ns, actor)
    WHERE e.actor IN speaker.names + [a.name]
  }
  DETACH DELETE a
  RETURN count(*) AS speakers
}
RETURN erased, retracted, speakers
