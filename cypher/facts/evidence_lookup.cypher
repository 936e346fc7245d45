// Evidence references (episode ids or client externalIds) resolved within the namespace.
UNWIND $refs AS ref
OPTIONAL MATCH (by_id:Episode {ns: $ns, id: ref}) USING INDEX by_id:Episode(id)
OPTIONAL MATCH (by_ext:Episode {ns: $ns, external_id: ref})
  USING INDEX by_ext:Episode(ns, external_id)
WITH ref, coalesce(by_id, by_ext) AS e
WHERE e IS NOT NULL
RETURN ref, e.id AS id, e.occurred_at AS occurred_at
