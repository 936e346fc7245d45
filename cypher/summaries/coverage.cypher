// Which of the referenced ids exist, by kind, and the time span the episodes cover.
CALL {
  UNWIND $ids AS ref
  OPTIONAL MATCH (e:Episode {ns: $ns, id: ref})
  WITH ref, e WHERE e IS NOT NULL
  RETURN collect(e.id) AS episodes, min(e.occurred_at) AS first, max(e.occurred_at) AS last
}
CALL {
  UNWIND $ids AS ref
  OPTIONAL MATCH (c:Summary {ns: $ns, id: ref})
  WITH c WHERE c IS NOT NULL
  RETURN collect(c.id) AS summaries, min(c.covers_from) AS sfirst, max(c.covers_to) AS slast
}
CALL {
  UNWIND $fact_ids AS ref
  OPTIONAL MATCH (f:Fact {ns: $ns, id: ref})
  WITH f WHERE f IS NOT NULL
  RETURN collect(f.id) AS facts
}
RETURN episodes, summaries, facts, first, last, sfirst, slast
