// How many nodes an export of the namespace writes (the labels of nodes.cypher): the length
// of `graphmem export`'s progress bar.
RETURN
  COUNT { MATCH (n:Actor {ns: $ns}) }
  + COUNT { MATCH (n:Session {ns: $ns}) }
  + COUNT { MATCH (n:Entity {ns: $ns}) }
  + COUNT { MATCH (n:Value {ns: $ns}) }
  + COUNT { MATCH (n:Alias {ns: $ns}) }
  + COUNT { MATCH (n:Episode {ns: $ns}) }
  + COUNT { MATCH (n:DeviceTurn {ns: $ns}) }
  + COUNT { MATCH (n:Fact {ns: $ns}) }
  + COUNT { MATCH (n:Summary {ns: $ns}) }
  + COUNT { MATCH (n:Conflict {ns: $ns}) }
  + COUNT { MATCH (n:EntityMerge {ns: $ns}) }
  + COUNT { MATCH (n:PredicatePolicy {ns: $ns}) }
  + COUNT { MATCH (n:RetentionPolicy {ns: $ns}) }
  + COUNT { MATCH (n:PruningPolicy {ns: $ns}) }
  + COUNT { MATCH (n:PipelineSwitches {ns: $ns}) }
  + COUNT { MATCH (n:AuditEvent {ns: $ns}) }
  AS nodes
