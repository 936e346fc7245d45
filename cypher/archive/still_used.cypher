// Which of these archive objects an episode of the namespace still points to.
UNWIND $keys AS key
MATCH (e:Episode {ns: $ns, archive_key: key})
RETURN collect(DISTINCT key) AS used
