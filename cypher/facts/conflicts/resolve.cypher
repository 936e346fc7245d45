// Close a conflict by decision: who settled it, when, why, and which fact was kept.
MATCH (c:Conflict {ns: $ns, id: $id, status: 'open'})
SET c.status = 'resolved', c.resolved_at = $now, c.resolved_by = $actor, c.reason = $reason,
    c.kept = $keep
RETURN c.id AS id
