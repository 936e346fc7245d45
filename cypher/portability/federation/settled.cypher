// Sync: which of these facts ($facts) this namespace holds and still believes, which it has
// stopped believing (ended, retracted, forgotten), which of these conflicts ($conflicts) it
// has settled, and which of these ids ($erasable) it has erased (tombstones). An ending is
// never undone by a sync, nor an erasure: a copy that still believes the fact, still
// disputes, or still holds what was erased, is older news.
RETURN COLLECT { UNWIND $facts AS id
                 MATCH (f:Fact {ns: $ns, id: id}) USING INDEX SEEK f:Fact(id)
                 WHERE f.retracted_at IS NULL RETURN id } AS believed,
       COLLECT { UNWIND $facts AS id
                 MATCH (f:Fact {ns: $ns, id: id}) USING INDEX SEEK f:Fact(id)
                 WHERE f.retracted_at IS NOT NULL RETURN id } AS facts,
       COLLECT { UNWIND $conflicts AS id
                 MATCH (c:Conflict {ns: $ns, id: id}) USING INDEX SEEK c:Conflict(id)
                 WHERE c.status <> 'open' RETURN id } AS conflicts,
       COLLECT { UNWIND $erasable AS id
                 MATCH (t:SyncErased {ns: $ns, id: id}) USING INDEX SEEK t:SyncErased(ns, id)
                 RETURN id } AS entombed
