// 0012: the namespace's speakers as Actor nodes ($actors: {key, name}).
UNWIND $actors AS actor
MERGE (a:Actor {ns: $ns, key: actor.key})
  ON CREATE SET a.name = actor.name
RETURN count(a) AS actors
