// 0019: an Event node written before held one subject (`subject_id`): it becomes a node of
// one (`subject_ids`), whose event keeps its id; its deliveries hold the subject themselves.
MATCH (e:Event) WHERE e.at IS NOT NULL AND e.subject_ids IS NULL  // every event, by Event(at)
CALL (e) {
  SET e.subject_ids = [e.subject_id]
  REMOVE e.subject_id
  WITH e
  MATCH (d:Delivery)-[:CARRIES]->(e)
  SET d.subject_id = e.subject_ids[0]
} IN TRANSACTIONS OF 5000 ROWS
