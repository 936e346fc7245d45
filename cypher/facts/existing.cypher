// Current facts with the same identity (subject, predicate, object): a re-assertion adds
// evidence to them instead of duplicating.
UNWIND $identities AS identity
MATCH (f:Fact {ns: $ns, identity: identity})
WHERE f.status IN ['active', 'disputed']
RETURN identity, f.id AS id
