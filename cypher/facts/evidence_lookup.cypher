// Evidence references (episode ids or client externalIds) resolved within the namespace.
// The id is matched alone and the namespace checked after: with both in the pattern, a plan
// cached while the database was small scanned the whole id index for every reference
// (850 ms for 500 references among 3,000 episodes; 57 ms seeking).
UNWIND $refs AS ref
OPTIONAL MATCH (by_id:Episode {id: ref}) USING INDEX by_id:Episode(id)
WHERE by_id.ns = $ns
OPTIONAL MATCH (by_ext:Episode {ns: $ns, external_id: ref})
  USING INDEX by_ext:Episode(ns, external_id)
WITH ref, coalesce(by_id, by_ext) AS e
WHERE e IS NOT NULL
RETURN ref, e.id AS id, e.occurred_at AS occurred_at
