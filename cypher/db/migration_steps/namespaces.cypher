// Every namespace that holds searchable nodes (for steps that backfill per namespace).
MATCH (n) WHERE n:Episode OR n:Fact OR n:Summary OR n:Entity OR n:Alias
RETURN DISTINCT n.ns AS ns
