// Entities that turned out to be one
// mergeEntities folds one entity into another; the (:EntityMerge) node records who merged
// what, when and why, and the merged name lives on as an alias.
MATCH (m:EntityMerge {ns: $ns})-[into:INTO]->(e:Entity)
OPTIONAL MATCH alias = (:Alias)-[:ALIAS_OF]->(e)
RETURN m, into, e, alias
