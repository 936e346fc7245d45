// Import checkpoints (graphmem/portability/importing.py): one per export file and target.
CREATE CONSTRAINT import_checkpoint_id IF NOT EXISTS FOR (n:ImportCheckpoint) REQUIRE n.id IS UNIQUE;
