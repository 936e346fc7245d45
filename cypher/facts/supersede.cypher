// Record why a fact replaced another: (winner)-[:SUPERSEDES {at, strategy, actor, reason}]->
UNWIND $links AS l
MATCH (winner:Fact {ns: $ns, id: l.winner}) USING INDEX SEEK winner:Fact(id)
MATCH (loser:Fact {ns: $ns, id: l.loser}) USING INDEX SEEK loser:Fact(id)
CREATE (winner)-[:SUPERSEDES {at: $now, strategy: l.strategy, actor: $actor,
                              reason: l.reason}]->(loser)
RETURN count(*) AS linked
