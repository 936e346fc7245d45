"""Facts: statements as edges with provenance, validity and conflict resolution."""
