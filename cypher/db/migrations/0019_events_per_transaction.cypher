// Events stored one node per transaction and kind (graphmem/events/outbox.py): no schema
// change; its data step (cypher/migration_steps/event_subjects.cypher) moves the events
// written one node each into the new shape.
