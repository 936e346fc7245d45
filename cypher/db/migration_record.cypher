// System statement (not namespaced): remember that a migration ran.
MERGE (m:Migration {id: $id})
ON CREATE SET m.checksum = $checksum, m.applied_at = datetime()
RETURN m.checksum AS checksum
