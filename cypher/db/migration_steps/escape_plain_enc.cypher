// Migration 0020: episode values that begin with "enc:" but are not of the sealed form
// (encryption.SEALED_FORM, which a test keeps equal to the one here) were written by users,
// not sealed: escape them ("enc:raw:" in front, encryption.PLAIN), so they read back as
// written. A value of the sealed form stays as it is: only a key can tell a forged
// one, and its reads are refused as before (the embedding worker sets it aside). So does one
// already escaped, so that a step interrupted and run again escapes nothing twice (text a
// user typed as "enc:raw:…" before now reads without those eight characters).
WITH 'enc:' AS prefix, 'enc:raw:' AS plain,
     'enc:v[12]:[A-Za-z0-9_-]{1,32}:[A-Za-z0-9+/]+={0,2}' AS sealed
MATCH (e:Episode)
WHERE any(value IN [e.content, e.metadata, e.context]
          WHERE value STARTS WITH prefix AND NOT value STARTS WITH plain
                AND NOT value =~ sealed)
CALL (e, prefix, plain, sealed) {
  SET e.content = CASE WHEN e.content STARTS WITH prefix AND NOT e.content =~ sealed
                        AND NOT e.content STARTS WITH plain
                       THEN plain + e.content ELSE e.content END,
      e.metadata = CASE WHEN e.metadata STARTS WITH prefix AND NOT e.metadata =~ sealed
                         AND NOT e.metadata STARTS WITH plain
                        THEN plain + e.metadata ELSE e.metadata END,
      e.context = CASE WHEN e.context STARTS WITH prefix AND NOT e.context =~ sealed
                        AND NOT e.context STARTS WITH plain
                       THEN plain + e.context ELSE e.context END
} IN TRANSACTIONS OF 5000 ROWS
