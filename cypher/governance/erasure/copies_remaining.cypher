// Verification by content, not only by id: the namespace's nodes that still hold a copy of
// erased text ($probes: the start of each erased content, or an erased entity's names) in a
// property that search reads. Episodes of every kind, or only of $episode_kinds (an entity
// erased without its episodes: the user's own turns may name it, graphmem's observations
// may not).
CALL () {
  MATCH (n:Episode {ns: $ns})
  WHERE ($episode_kinds IS NULL OR n.kind IN $episode_kinds)
    AND any(p IN $probes WHERE n.content CONTAINS p OR n.context CONTAINS p
                               OR n.window CONTAINS p)
  RETURN count(n) AS episodes
}
CALL () {
  MATCH (n:Summary {ns: $ns}) WHERE any(p IN $probes WHERE n.text CONTAINS p)
  RETURN count(n) AS summaries
}
CALL () {
  MATCH (n:Fact {ns: $ns}) WHERE any(p IN $probes WHERE n.text CONTAINS p)
  RETURN count(n) AS facts
}
RETURN episodes + summaries + facts AS copies
