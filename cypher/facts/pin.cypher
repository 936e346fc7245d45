// Pin a fact (always remember: pruning, retention and erasure of its evidence leave it
// believed) or unpin it. Pinning again keeps the first pin's time and author.
MATCH (f:Fact {ns: $ns, id: $id}) USING INDEX SEEK f:Fact(id)
WITH f, f.pinned_at IS NOT NULL AS was_pinned
SET f.pinned_at = CASE WHEN $pinned THEN coalesce(f.pinned_at, $now) END,
    f.pinned_by = CASE WHEN NOT $pinned THEN null WHEN was_pinned THEN f.pinned_by
                       ELSE $actor END
RETURN f.id AS id
