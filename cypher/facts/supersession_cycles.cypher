// The SUPERSEDES links just written ($links: {winner, loser, …}) that close a cycle: the
// loser already leads back to its winner (or is it). Run in the writing transaction, which
// sees its own links. A shortest path is a breadth-first search from both ends, so even a
// cycle stored before this check costs no more than the facts it joins.
UNWIND $links AS l
MATCH (winner:Fact {ns: $ns, id: l.winner}) USING INDEX SEEK winner:Fact(id)
MATCH (loser:Fact {ns: $ns, id: l.loser}) USING INDEX SEEK loser:Fact(id)
WITH l, winner, loser
WHERE winner = loser
   OR COUNT { MATCH back = shortestPath((loser)-[:SUPERSEDES*1..1000]->(winner))
              WHERE winner <> loser } > 0
RETURN collect(l) AS rows
