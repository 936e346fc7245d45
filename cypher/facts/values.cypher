// Literal objects are shared Value nodes (one per namespace, datatype and canonical key).
CYPHER replan=skip  // the write path keeps its plan: see graphmem/db/statements.py
UNWIND $values AS v
MERGE (n:Value {ns: $ns, datatype: v.datatype, key: v.key})
  ON CREATE SET n.id = 'val_' + replace(randomUUID(), '-', ''), n.value = v.value,
                n.created_at = $now
RETURN v.key AS key, v.datatype AS datatype, n.id AS id
