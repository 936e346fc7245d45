// Import, before anything is written: which of these facts of the file ($facts: {key,
// identity}, none of them forgotten in the file) the namespace holds forgotten (a user's
// `forgetFact`), by the fact itself or another version of its statement. An import leaves
// them as they are: like an assertion from any source but the user, it never brings a
// forgotten statement back.
UNWIND $facts AS row
CALL (row) {
  MATCH (f:Fact {ns: $ns, id: row.key}) USING INDEX SEEK f:Fact(id)
  WHERE f.forgotten_at IS NOT NULL
  RETURN row.key AS key
  UNION
  MATCH (g:Fact {ns: $ns, identity: row.identity}) USING INDEX SEEK g:Fact(ns, identity)
  WHERE g.forgotten_at IS NOT NULL
  RETURN row.key AS key
}
RETURN collect(DISTINCT key) AS keys
