// A namespace's events of some kinds after a point (a moment and, for events of that same
// moment, an id: one transaction stamps all its events alike), oldest first, through (ns, at).
MATCH (e:Event {ns: $ns}) USING INDEX SEEK e:Event(ns, at)
WHERE e.at >= $after AND (e.at > $after OR e.id > $after_id) AND e.kind IN $kinds
WITH e ORDER BY e.at, e.id LIMIT $limit
RETURN collect(e {.id, .kind, .subject_id, .at}) AS rows
