// Archived episodes among these, whole (to check what comes back against their content
// hash), with where their content went.
UNWIND $ids AS id
MATCH (e:Episode {ns: $ns, id: id}) USING INDEX SEEK e:Episode(id)
WHERE e.archived_at IS NOT NULL
RETURN e.archive_key AS key, e {.*, embedding: null} AS episode
