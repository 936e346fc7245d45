// Sync: which of these references ($ids) are to $device's own turns: a device erases only
// references to its own.
UNWIND $ids AS id
MATCH (t:DeviceTurn {ns: $ns, id: id}) USING INDEX SEEK t:DeviceTurn(id)
WHERE t.device = $device
RETURN collect(id) AS ids
