// Episodes already recorded under any of the given idempotency keys.
CYPHER replan=skip  // the write path keeps its plan: see graphmem/db/statements.py
MATCH (e:Episode {ns: $ns}) USING INDEX SEEK e:Episode(ns, external_id)
WHERE e.external_id IN $external_ids
WITH e LIMIT 100000
RETURN collect({episode: e {.*, embedding: null}}) AS rows
