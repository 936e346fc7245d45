// Migration 0014: every embedded episode with a speaker waits for its embedding again (its
// old vector stays searchable until the worker stores the new one).
MATCH (n:Episode) WHERE n.actor IS NOT NULL AND n.embedding IS NOT NULL AND NOT n:EmbedPending
CALL (n) {
  SET n:EmbedPending
} IN TRANSACTIONS OF 5000 ROWS
