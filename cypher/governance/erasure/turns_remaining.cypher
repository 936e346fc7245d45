// Verification of an erasure of turn references: any of the references or the facts and
// summaries erased with them still found.
RETURN COUNT { UNWIND $turns AS id MATCH (t:DeviceTurn {ns: $ns, id: id}) RETURN t }
     + COUNT { UNWIND $facts AS id MATCH (f:Fact {ns: $ns, id: id}) RETURN f }
     + COUNT { UNWIND $summaries AS id MATCH (m:Summary {ns: $ns, id: id}) RETURN m } AS nodes
