// Graph expansion: the evidence episodes of fact hits.
UNWIND $fact_ids AS fact_id
MATCH (f:Fact {ns: $ns, id: fact_id})-[:EVIDENCED_BY]->(e:Episode {ns: $ns}) USING INDEX f:Fact(id)
RETURN fact_id, e.id AS id
