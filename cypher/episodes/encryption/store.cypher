// Write re-sealed episode fields back, each to its own namespace's node.
UNWIND $rows AS row
MATCH (e:Episode {id: row.id})
WHERE e.ns = row.ns
SET e.content = row.content, e.metadata = row.metadata, e.context = row.context,
    e.content_hash = row.content_hash
RETURN count(e) AS stored
