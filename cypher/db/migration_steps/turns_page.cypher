// Migration 0023: a page of a namespace's turns with words to read (not redacted, not
// archived), their words and when they were said, by id after $after.
MATCH (e:Episode {ns: $ns})
WHERE e.id > $after AND e.redacted_at IS NULL AND e.archived_at IS NULL
RETURN e.id AS id, e.content AS content, e.occurred_at AS occurred_at
ORDER BY id
LIMIT $limit
