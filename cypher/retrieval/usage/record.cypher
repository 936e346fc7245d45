// When answers last used these facts and episodes (recall, search, facts): pruning spares
// what is in use. Written by the usage log a few seconds after the reads, off their path.
CALL () {
  UNWIND $facts AS id
  MATCH (f:Fact {ns: $ns, id: id}) USING INDEX SEEK f:Fact(id)
  SET f.last_used_at = $now
  RETURN count(f) AS facts
}
CALL () {
  UNWIND $episodes AS id
  MATCH (e:Episode {ns: $ns, id: id}) USING INDEX SEEK e:Episode(id)
  SET e.last_used_at = $now
  RETURN count(e) AS episodes
}
RETURN facts + episodes AS used
