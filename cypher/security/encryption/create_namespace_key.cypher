// Give a namespace its key salt, unless another process just did (the constraint on ns makes
// MERGE take the lock: both then read the same salt).
MERGE (k:NamespaceKey {ns: $ns})
  ON CREATE SET k.salt = $salt, k.created_at = $now
RETURN k.salt AS salt
