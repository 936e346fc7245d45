// Sync: which of these facts ($facts) this namespace holds and still believes, which it has
// stopped believing (ended, retracted, forgotten), and which of these conflicts
// ($conflicts) it has settled. An ending is never undone by a sync: a copy that still
// believes the fact, or still disputes, is older news.
RETURN COLLECT { UNWIND $facts AS id
                 MATCH (f:Fact {ns: $ns, id: id}) USING INDEX SEEK f:Fact(id)
                 WHERE f.retracted_at IS NULL RETURN id } AS believed,
       COLLECT { UNWIND $facts AS id
                 MATCH (f:Fact {ns: $ns, id: id}) USING INDEX SEEK f:Fact(id)
                 WHERE f.retracted_at IS NOT NULL RETURN id } AS facts,
       COLLECT { UNWIND $conflicts AS id
                 MATCH (c:Conflict {ns: $ns, id: id}) USING INDEX SEEK c:Conflict(id)
                 WHERE c.status <> 'open' RETURN id } AS conflicts
