// Import: finished, so a later import of the same file runs from the start (and, being
// idempotent, changes nothing unless the namespace changed meanwhile).
OPTIONAL MATCH (c:ImportCheckpoint {id: $id})
DELETE c
RETURN count(c) AS finished
