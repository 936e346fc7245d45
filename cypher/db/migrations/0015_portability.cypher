// Import (graphmem/portability/importing.py): one checkpoint per export file and target, and
// every node an export names by id found by it (the other labels have theirs already).
CREATE CONSTRAINT import_checkpoint_id IF NOT EXISTS FOR (n:ImportCheckpoint) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT entity_merge_id IF NOT EXISTS FOR (n:EntityMerge) REQUIRE n.id IS UNIQUE;
