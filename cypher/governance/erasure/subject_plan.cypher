// What erasing an entity touches: every fact version about it (as subject or object), the
// episodes evidencing them, the observations that record changes to them (a retraction's,
// a correction's: their text names the entity), and the entities and values at their
// other ends.
MATCH (e:Entity {ns: $ns, id: $id})
OPTIONAL MATCH (e)<-[:SUBJECT|OBJECT]-(f:Fact {ns: $ns})
OPTIONAL MATCH (f)-[:EVIDENCED_BY]->(ep:Episode)
OPTIONAL MATCH (f)-[:RETRACTED_IN|EVIDENCED_BY]->(obs:Episode {ns: $ns, kind: 'observation'})
OPTIONAL MATCH (f)-[:SUBJECT|OBJECT]->(other)
WHERE other <> e
RETURN collect(DISTINCT f.id) AS facts, collect(DISTINCT ep.id) AS episodes,
       collect(DISTINCT obs.id) AS observations,
       collect(DISTINCT other.id) AS others,
       [x IN collect(DISTINCT other) WHERE x:Entity | x.id] AS other_entities
