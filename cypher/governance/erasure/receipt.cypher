// A content-free tombstone for audit: which namespace (as a digest), when, how much.
CREATE (r:ErasureReceipt {id: $id, ns_digest: $ns_digest, scope: $scope,
                          requested_at: $requested_at, completed_at: $completed_at,
                          counts: $counts, verified: $verified, actor: $actor})
RETURN r.id AS id
