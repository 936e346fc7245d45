// Jobs by id.
UNWIND $ids AS id
MATCH (j:Job {ns: $ns, id: id}) USING INDEX SEEK j:Job(id)
RETURN j {.*, episodes: COUNT { (j)-[:CONCERNS]->(:Episode) }} AS job
