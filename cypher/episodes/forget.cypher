// Mark episodes a user asked memory to forget (they are redacted in the same transaction):
// a fact resting only on forgotten episodes is forgotten with the last of them.
UNWIND $ids AS id
MATCH (e:Episode {ns: $ns, id: id}) USING INDEX SEEK e:Episode(id)
SET e.forgotten_at = coalesce(e.forgotten_at, $now)
RETURN count(e) AS forgotten
