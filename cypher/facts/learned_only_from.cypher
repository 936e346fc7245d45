// The believed, unpinned facts memory took only from these episodes, or from them and
// episodes the user already asked memory to forget: what forgetting them lets go of.
UNWIND $ids AS id
MATCH (:Episode {ns: $ns, id: id})<-[:EVIDENCED_BY]-(f:Fact)
WHERE f.ns = $ns AND f.retracted_at IS NULL AND f.pinned_at IS NULL
  AND NOT EXISTS {
    MATCH (f)-[:EVIDENCED_BY]->(other)
    WHERE NOT other.id IN $ids AND other.forgotten_at IS NULL
  }
RETURN collect(DISTINCT f.id) AS orphaned
