// The service's secret for naming erased namespaces (a keyed digest), made once and shared
// by every process serving this database. No API returns it.
MERGE (s:ServerSecret {name: 'erasure'})
  ON CREATE SET s.value = $candidate, s.created_at = datetime()
RETURN s.value AS secret
