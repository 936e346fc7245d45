// Verification for erased episodes: none left by id, none searchable by their text index.
RETURN COUNT { MATCH (e:Episode {ns: $ns}) WHERE e.id IN $ids } AS nodes
