// Sealed episode values are recognised by their whole form, and plaintext that begins with
// "enc:" is stored escaped ("enc:raw:…", graphmem/security/encryption.py). No schema change:
// the data step (cypher/migration_steps/escape_plain_enc.cypher) escapes what was stored
// before, so that text a user wrote is never taken for a sealed value.
