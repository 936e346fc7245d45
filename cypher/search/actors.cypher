// The namespace's speakers among the query's word n-grams ($keys, casefolded).
UNWIND $keys AS key
MATCH (a:Actor {ns: $ns, key: key})
RETURN a.key AS key, a.name AS name
