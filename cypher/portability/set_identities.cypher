// Import into another namespace: each fact's statement identity, made again from its ends
// in the target (portability/fact_ends).
UNWIND $rows AS row
MATCH (f:Fact {ns: $ns, id: row.id}) USING INDEX SEEK f:Fact(id)
SET f.identity = row.identity
RETURN count(f) AS facts
