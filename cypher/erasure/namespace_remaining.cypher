// Verification: anything of the namespace left, by label index and by each fulltext index
// (a hit there would mean text still searchable). The ns phrase also matches namespaces that
// extend it ("a/b" in "a/b-c"), hence the exact check on each hit.
RETURN
  COUNT { MATCH (n:Episode {ns: $ns}) } + COUNT { MATCH (n:Fact {ns: $ns}) }
  + COUNT { MATCH (n:Entity {ns: $ns}) } + COUNT { MATCH (n:Alias {ns: $ns}) }
  + COUNT { MATCH (n:Value {ns: $ns}) } + COUNT { MATCH (n:Summary {ns: $ns}) }
  + COUNT { MATCH (n:Session {ns: $ns}) } + COUNT { MATCH (n:Conflict {ns: $ns}) }
  + COUNT { MATCH (n:PredicatePolicy {ns: $ns}) } + COUNT { MATCH (n:EntityMerge {ns: $ns}) }
  + COUNT { MATCH (n:Job {ns: $ns}) } + COUNT { MATCH (n:PipelineSwitches {ns: $ns}) }
  + COUNT { MATCH (n:RetentionPolicy {ns: $ns}) }
    AS nodes,
  COUNT { CALL db.index.fulltext.queryNodes('episode_text_with_context', $lucene)
          YIELD node WHERE node.ns = $ns RETURN node }
  + COUNT { CALL db.index.fulltext.queryNodes('fact_text', $lucene)
            YIELD node WHERE node.ns = $ns RETURN node }
  + COUNT { CALL db.index.fulltext.queryNodes('summary_text', $lucene)
            YIELD node WHERE node.ns = $ns RETURN node }
  + COUNT { CALL db.index.fulltext.queryNodes('entity_names', $lucene)
            YIELD node WHERE node.ns = $ns RETURN node }
    AS searchable
