// System statement (not namespaced): whether the store holds any memory or key at all, for
// `graphmem restore`, which replaces it only when told to. One node of each label at most.
CALL {
  MATCH (n:Episode) RETURN n LIMIT 1
  UNION MATCH (n:Fact) RETURN n LIMIT 1
  UNION MATCH (n:Entity) RETURN n LIMIT 1
  UNION MATCH (n:Summary) RETURN n LIMIT 1
  UNION MATCH (n:ApiKey) RETURN n LIMIT 1
}
RETURN count(n) > 0 AS holds
