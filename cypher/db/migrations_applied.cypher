// System statement (not namespaced): which migrations ran, with their checksums.
MATCH (m:Migration)
RETURN m.id AS id, m.checksum AS checksum, m.applied_at AS applied_at
ORDER BY m.id
LIMIT 10000
