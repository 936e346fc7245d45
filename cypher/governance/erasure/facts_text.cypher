// Facts by id as a subject erasure's dry run lists them: what each said, and its status.
UNWIND $ids AS id
MATCH (f:Fact {ns: $ns, id: id}) USING INDEX SEEK f:Fact(id)
RETURN f.id AS id, f.text AS text, f.status AS status
ORDER BY id
