// Facts matching a filter, believed as of $as_of and valid at $valid_at (either may be null:
// no filter on that axis), newest first, after a keyset cursor.
OPTIONAL MATCH (s:Entity {ns: $ns, key: $subject_key}) USING INDEX SEEK s:Entity(ns, key)
OPTIONAL MATCH (alias:Alias {ns: $ns, key: $subject_key})-[:ALIAS_OF]->(sa:Entity {ns: $ns})
  USING INDEX SEEK alias:Alias(ns, key)
WITH coalesce(s, sa) AS subject
WHERE $subject_key IS NULL OR subject IS NOT NULL
CALL (subject) {
  WITH subject WHERE subject IS NOT NULL
  MATCH (f)-[:SUBJECT]->(subject)  // unlabelled: walk from the subject, not the namespace
  WHERE f.ns = $ns
  RETURN f
  UNION
  WITH subject WHERE subject IS NULL
  MATCH (f:Fact {ns: $ns})
  RETURN f
}
WITH f
WHERE ($predicate IS NULL OR f.predicate = $predicate)
  AND ($object IS NULL OR toLower(f.object) = toLower($object))
  AND ($source IS NULL OR f.source = $source)
  AND ($min_confidence IS NULL OR f.confidence >= $min_confidence)
  AND ($as_of IS NULL OR (f.recorded_at <= $as_of
                           AND (f.retracted_at IS NULL OR f.retracted_at > $as_of)))
  AND ($valid_at IS NULL OR ((f.valid_from IS NULL OR f.valid_from <= $valid_at)
                             AND (f.valid_to IS NULL OR f.valid_to > $valid_at)))
  AND ($after_t IS NULL OR f.recorded_at < $after_t
       OR (f.recorded_at = $after_t AND f.id < $after_id))
WITH f ORDER BY f.recorded_at DESC, f.id DESC LIMIT $limit
RETURN collect({fact: f {.*, embedding: null}}) AS rows
