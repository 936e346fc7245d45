// One breadth-first hop along fact edges from a frontier of entity or value ids.
UNWIND $frontier AS node_id
CALL (node_id) {
  MATCH (n:Entity {ns: $ns, id: node_id}) USING INDEX SEEK n:Entity(id)
  RETURN n
  UNION
  MATCH (n:Value {ns: $ns, id: node_id}) USING INDEX SEEK n:Value(id)
  RETURN n
}
MATCH (n)-[r]-(m)
WHERE r.fact_id IS NOT NULL
  AND ($direction = 'both' OR ($direction = 'out' AND startNode(r) = n)
       OR ($direction = 'in' AND endNode(r) = n))
  AND ($types IS NULL OR type(r) IN $types)
  AND r.status IN $statuses
  AND ($valid_at IS NULL OR ((r.valid_from IS NULL OR r.valid_from <= $valid_at)
                             AND (r.valid_to IS NULL OR r.valid_to > $valid_at)))
  AND NOT r.fact_id IN $seen_facts
WITH DISTINCT r, m
// Cut to the limit on the edges themselves (most recently true first). No statement node is
// read: the edge carries its fact's id, and the API reads the facts only when they are asked.
ORDER BY r.valid_from DESC, r.fact_id
LIMIT $limit
RETURN collect({fact_id: r.fact_id, from_id: startNode(r).id, to_id: endNode(r).id,
                neighbour: m {.id, .name, .type, .datatype, .key, entity: m:Entity}}) AS rows
