// System statement (not namespaced): the principal behind a presented key, by its hash.
MATCH (k:ApiKey {hash: $hash})
WHERE k.revoked_at IS NULL
RETURN k.key_id AS id, k.name AS name, k.grants AS grants, k.admin AS admin
LIMIT 1
