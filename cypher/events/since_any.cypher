// The events of several namespaces after a point, oldest first, for the process's one poll
// (events/feed.py: one query for every running subscription, not one per subscription).
// As since.cypher, through (ns, at) once per namespace; each row names its namespace, and the
// feed hands it only to listeners of that namespace.
MATCH (e:Event) USING INDEX SEEK e:Event(ns, at)
WHERE e.ns IN $namespaces AND e.at >= $after AND (e.at > $after OR e.id >= $after_node)
WITH e ORDER BY e.at, e.id LIMIT $limit + 1
UNWIND range(0, size(e.subject_ids) - 1) AS n
WITH e, n, CASE size(e.subject_ids) WHEN 1 THEN e.id
                ELSE e.id + '.' + right('0000' + toString(n), 5) END AS id
WHERE e.at > $after OR id > $after_id
WITH e, n, id ORDER BY e.at, id LIMIT $limit
RETURN collect({id: id, kind: e.kind, subject_id: e.subject_ids[n], at: e.at, ns: e.ns}) AS rows
