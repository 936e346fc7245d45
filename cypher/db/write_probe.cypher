// System statement (not namespaced): /readyz's proof that Neo4j commits writes again after it
// failed (a full disk, a panicked kernel). One node, written over, never read by anything else.
MERGE (p:WriteProbe {id: 'readyz'})
SET p.written_at = datetime()
