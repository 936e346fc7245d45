// Verification: anything of the namespace left, by label index and by each fulltext index
// (a hit there would mean text still searchable): $lucene asks for the namespace's exact
// token (ns_key); each hit's ns is checked too.
RETURN
  COUNT { MATCH (n:Episode {ns: $ns}) } + COUNT { MATCH (n:Fact {ns: $ns}) }
  + COUNT { MATCH (n:Entity {ns: $ns}) } + COUNT { MATCH (n:Alias {ns: $ns}) }
  + COUNT { MATCH (n:Value {ns: $ns}) } + COUNT { MATCH (n:Summary {ns: $ns}) }
  + COUNT { MATCH (n:Actor {ns: $ns}) } + COUNT { MATCH (n:Session {ns: $ns}) } + COUNT { MATCH (n:Conflict {ns: $ns}) }
  + COUNT { MATCH (n:ClosedSession {ns: $ns}) }
  + COUNT { MATCH (n:PredicatePolicy {ns: $ns}) } + COUNT { MATCH (n:EntityMerge {ns: $ns}) }
  + COUNT { MATCH (n:Job {ns: $ns}) } + COUNT { MATCH (n:PipelineSwitches {ns: $ns}) }
  + COUNT { MATCH (n:RetentionPolicy {ns: $ns}) } + COUNT { MATCH (n:Event {ns: $ns}) }
  + COUNT { MATCH (n:Webhook {ns: $ns}) } + COUNT { MATCH (n:Delivery {ns: $ns}) }
  + COUNT { MATCH (n:PruningPolicy {ns: $ns}) } + COUNT { MATCH (n:NamespaceKey {ns: $ns}) }
  + COUNT { MATCH (n:DeviceTurn {ns: $ns}) } + COUNT { MATCH (n:SyncState {ns: $ns}) }
  + COUNT { MATCH (n:SyncErased {ns: $ns}) }
    AS nodes,
  COUNT { CALL db.index.fulltext.queryNodes('episode_search', $lucene)
          YIELD node WHERE node.ns = $ns RETURN node }
  + COUNT { CALL db.index.fulltext.queryNodes('fact_search', $lucene)
            YIELD node WHERE node.ns = $ns RETURN node }
  + COUNT { CALL db.index.fulltext.queryNodes('summary_search', $lucene)
            YIELD node WHERE node.ns = $ns RETURN node }
  + COUNT { CALL db.index.fulltext.queryNodes('entity_search', $lucene)
            YIELD node WHERE node.ns = $ns RETURN node }
    AS searchable
