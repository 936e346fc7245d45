// Mark retracted facts forgotten at a user's request: unpinned, and their statements barred
// from being asserted again by machines (facts/believed reports them). $reason, if given,
// replaces the reason their retraction gave.
UNWIND $ids AS id
MATCH (f:Fact {ns: $ns, id: id}) USING INDEX SEEK f:Fact(id)
SET f.forgotten_at = coalesce(f.forgotten_at, $now), f.pinned_at = null, f.pinned_by = null,
    f.reason = coalesce($reason, f.reason)
RETURN count(f) AS forgotten
