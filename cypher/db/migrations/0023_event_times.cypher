// A turn's event time: when what it tells of happened, read from its words against when it
// was said ("last week" said on 8 May is early May), stored as `event_start`/`event_end` beside
// `occurred_at`; search's time prior matches a query's time against either. No schema change:
// the data step (graphmem/db/migration_steps.py, event_times) reads the turns written before.
