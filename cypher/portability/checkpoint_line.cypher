// Import: where an interrupted import of this export into this target stopped.
MATCH (c:ImportCheckpoint {id: $id})
RETURN c.line AS line
