// After a namespace is erased its audit trail stays (who did what, when) but no longer names
// it: the namespace becomes its digest.
MATCH (a:AuditEvent {ns: $ns})
SET a.ns = $digest
RETURN count(a) AS pseudonymised
