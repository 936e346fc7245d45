// Events and webhook deliveries past their keeping time, every namespace's, a batch at a
// time (the worker's housekeeping calls it again while it removes a full batch).
CALL () {
  MATCH (e:Event) WHERE e.at < $before
  WITH e LIMIT $batch
  DETACH DELETE e
  RETURN count(e) AS events
}
CALL () {
  MATCH (d:Delivery) WHERE d.created_at < $before
  WITH d LIMIT $batch
  DETACH DELETE d
  RETURN count(d) AS deliveries
}
RETURN events + deliveries AS pruned
