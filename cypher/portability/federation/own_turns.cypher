// Sync, on a device: which of these referenced turns ($ids: episode ids) are this device's own
// episodes. Their references become the real evidence again (EVIDENCED_BY the episode).
UNWIND $ids AS id
MATCH (e:Episode {ns: $ns, id: id}) USING INDEX SEEK e:Episode(id)
RETURN collect(id) AS ids
