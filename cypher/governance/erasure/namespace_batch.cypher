// Erase up to $batch nodes of each kind from a namespace, with their relationships (fact
// edges, provenance, chains). One bounded transaction; the caller repeats until all are 0.
CALL () { MATCH (n:Episode {ns: $ns}) WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS episodes }
CALL () { MATCH (n:Fact {ns: $ns}) WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS facts }
CALL () { MATCH (n:Entity {ns: $ns}) WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS entities }
CALL () { MATCH (n:Alias {ns: $ns}) WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS aliases }
CALL () { MATCH (n:Value {ns: $ns}) WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS values }
CALL () { MATCH (n:Summary {ns: $ns}) WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS summaries }
CALL () { MATCH (n:Actor {ns: $ns}) WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS actors }
CALL () { MATCH (n:Session {ns: $ns}) WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS sessions }
CALL () { MATCH (n:ClosedSession {ns: $ns}) WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS closed_sessions }
CALL () { MATCH (n:Conflict {ns: $ns}) WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS conflicts }
CALL () { MATCH (n:PredicatePolicy {ns: $ns}) WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS policies }
CALL () { MATCH (n:EntityMerge {ns: $ns}) WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS merges }
CALL () { MATCH (n:Job {ns: $ns}) WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS jobs }
CALL () { MATCH (n:PipelineSwitches {ns: $ns}) DETACH DELETE n RETURN count(*) AS switches }
CALL () { MATCH (n:RetentionPolicy {ns: $ns}) DETACH DELETE n RETURN count(*) AS retention }
CALL () { MATCH (n:PruningPolicy {ns: $ns}) DETACH DELETE n RETURN count(*) AS pruning }
CALL () { MATCH (n:NamespaceKey {ns: $ns}) DETACH DELETE n RETURN count(*) AS keys }
CALL () { MATCH (n:Event {ns: $ns}) WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS events }
CALL () { MATCH (n:Delivery {ns: $ns}) WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS deliveries }
CALL () { MATCH (n:Webhook {ns: $ns}) DETACH DELETE n RETURN count(*) AS webhooks }
CALL () { MATCH (n:DeviceTurn {ns: $ns}) WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS device_turns }
CALL () { MATCH (n:SyncState {ns: $ns}) DETACH DELETE n RETURN count(*) AS sync_states }
CALL () { MATCH (n:SyncErased {ns: $ns}) WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS sync_tombstones }
RETURN episodes, facts, entities, aliases, values, summaries, actors, sessions, closed_sessions, conflicts, policies,
       merges, jobs, switches, retention, pruning, keys, events, deliveries, webhooks, device_turns,
       sync_states, sync_tombstones
