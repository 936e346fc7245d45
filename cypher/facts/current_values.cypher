// The facts believed and valid now about a subject (by name or alias) and predicate: what a
// correction read from an episode may replace (never a fact about the past).
OPTIONAL MATCH (s:Entity {ns: $ns, key: $subject_key})
OPTIONAL MATCH (:Alias {ns: $ns, key: $subject_key})-[:ALIAS_OF]->(sa:Entity {ns: $ns})
WITH coalesce(s, sa) AS subject
WHERE subject IS NOT NULL
MATCH (subject)<-[:SUBJECT]-(f:Fact {ns: $ns})
WHERE f.predicate = $predicate AND f.retracted_at IS NULL
  AND (f.valid_from IS NULL OR f.valid_from <= $now)
  AND (f.valid_to IS NULL OR f.valid_to > $now)
RETURN f.id AS id, f.object AS object, f.valid_from AS valid_from, f.valid_to AS valid_to
ORDER BY f.recorded_at DESC, f.id DESC
LIMIT 20
