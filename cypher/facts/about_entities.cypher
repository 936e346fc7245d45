// Facts believed as of $as_of and valid at $now where each entity is subject or object (both
// the present, except for recall's time travel), the most recent $per_entity of each
// (DataLoader for Entity.facts*, recall): a hub entity with thousands of facts costs no more
// than any other.
UNWIND $entity_ids AS entity_id
CALL (entity_id) {
  MATCH (e:Entity {ns: $ns, id: entity_id})<-[role:SUBJECT|OBJECT]-(f)  // f: a Fact, by type
  USING INDEX SEEK e:Entity(id)
  WHERE f.ns = $ns AND f.recorded_at <= $as_of
    AND (f.retracted_at IS NULL OR f.retracted_at > $as_of)
    AND (f.valid_from IS NULL OR f.valid_from <= $now) AND (f.valid_to IS NULL OR f.valid_to > $now)
  RETURN role, f
  ORDER BY f.recorded_at DESC
  LIMIT $per_entity
}
RETURN collect({entity_id: entity_id, role: type(role), fact: f {.*, embedding: null}}) AS rows
