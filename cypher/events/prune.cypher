// Events past their keeping time, every namespace's, a batch at a time (the worker's
// housekeeping calls it again while it removes a full batch).
MATCH (e:Event) WHERE e.at < $before
WITH e LIMIT $batch
DELETE e
RETURN count(e) AS pruned
