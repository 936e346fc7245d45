// Episodes already recorded under any of the given idempotency keys.
MATCH (e:Episode {ns: $ns}) USING INDEX SEEK e:Episode(ns, external_id)
WHERE e.external_id IN $external_ids
RETURN e {.*, embedding: null} AS episode
LIMIT 100000
