// Sync: the references to $device's turns this shared namespace holds (ids only, by id after
// $after): the device says which of them it has erased since.
MATCH (t:DeviceTurn {ns: $ns, device: $device}) USING INDEX SEEK t:DeviceTurn(ns, device)
WHERE t.id > $after
WITH t.id AS id ORDER BY id LIMIT $limit
RETURN collect(id) AS ids
