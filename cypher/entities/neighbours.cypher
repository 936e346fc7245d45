// Entities sharing a fact with any of these (a merge locks them: their facts change too).
MATCH (e:Entity {ns: $ns})<-[:SUBJECT|OBJECT]-(:Fact {ns: $ns})-[:SUBJECT|OBJECT]->(x:Entity)
WHERE e.id IN $ids
RETURN DISTINCT x.id AS id
