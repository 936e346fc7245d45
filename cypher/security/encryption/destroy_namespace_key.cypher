// Destroy a namespace's key salt: what was sealed under its key cannot be opened again.
OPTIONAL MATCH (k:NamespaceKey {ns: $ns})
DETACH DELETE k
RETURN count(k) AS destroyed
