"""The pipeline job queue and per-namespace switches: storage-level, below the domain."""
