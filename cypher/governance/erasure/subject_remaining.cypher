// Verification for an erased entity: the node is gone (its fact versions went with their
// SUBJECT/OBJECT links), and neither its name nor any alias resolves any more.
RETURN COUNT { MATCH (e:Entity {ns: $ns, id: $id}) } AS nodes,
       COUNT { UNWIND $keys AS k MATCH (a:Alias {ns: $ns, key: k}) RETURN a }
       + COUNT { UNWIND $keys AS k MATCH (e:Entity {ns: $ns, key: k}) RETURN e } AS resolvable
