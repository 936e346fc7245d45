// Import: the last line of an export file committed into its target, in the same transaction
// as the chunk it ends, so an interrupted import resumes after it. The id is a digest of the
// export and the target (no namespace name or content is kept here).
MERGE (c:ImportCheckpoint {id: $id})
SET c.line = $line
RETURN c.line AS line
