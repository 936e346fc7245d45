// Jobs by id.
UNWIND $ids AS id
MATCH (j:Job {ns: $ns, id: id})
RETURN j {.*, episodes: COUNT { (j)-[:CONCERNS]->(:Episode) }} AS job
