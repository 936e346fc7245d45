// Migration 0023: the event times read from a page of turns ($told: {id, start, end}).
UNWIND $told AS told
MATCH (e:Episode {ns: $ns, id: told.id}) USING INDEX SEEK e:Episode(id)
SET e.event_start = told.start, e.event_end = told.end
