// The audit of one fact: citing summaries and the supersession chain in both directions.
MATCH (f:Fact {ns: $ns, id: $id})
OPTIONAL MATCH (sum:Summary {ns: $ns})-[:CITES]->(f)
WITH f, collect(DISTINCT sum {.*, embedding: null}) AS summaries
OPTIONAL MATCH (f)-[:SUPERSEDES*1..50]->(older:Fact {ns: $ns})
WITH f, summaries, collect(DISTINCT older {.*, embedding: null}) AS supersedes
OPTIONAL MATCH (newer:Fact {ns: $ns})-[:SUPERSEDES*1..50]->(f)
RETURN f {.*, embedding: null} AS fact, summaries, supersedes, collect(DISTINCT newer {.*, embedding: null}) AS superseded_by
