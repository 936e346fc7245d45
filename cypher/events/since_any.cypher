// The events of several namespaces after a point (a moment and, for events of that same
// moment, an id: one transaction stamps all its events alike), oldest first, through (ns, at)
// once per namespace: the process's one poll for every running subscription (events/feed.py).
// Each row names its namespace, and the feed hands it only to listeners of that namespace.
// An Event node holds a transaction's events of one kind: the only one; or, of several, the
// n-th is `<node id>.<n, five digits>`, so ids order as their nodes do. Each node past the
// cursor tells at least one event, so $limit + 1 nodes tell at least $limit (the node at the
// cursor, $after_node, may tell none).
MATCH (e:Event) USING INDEX SEEK e:Event(ns, at)
WHERE e.ns IN $namespaces AND e.at >= $after AND (e.at > $after OR e.id >= $after_node)
WITH e ORDER BY e.at, e.id LIMIT $limit + 1
UNWIND range(0, size(e.subject_ids) - 1) AS n
WITH e, n, CASE size(e.subject_ids) WHEN 1 THEN e.id
                ELSE e.id + '.' + right('0000' + toString(n), 5) END AS id
WHERE e.at > $after OR id > $after_id
WITH e, n, id ORDER BY e.at, id LIMIT $limit
RETURN collect({id: id, kind: e.kind, subject_id: e.subject_ids[n], at: e.at, ns: e.ns}) AS rows
