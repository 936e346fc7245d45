# Sourced by bin/test and bin/mutate: the environment the test suite runs in, so a mutant's
# tests run exactly as the suite's do.
# Tests get their own Neo4j home and ports so they never touch the data `bin/serve` keeps.
export GRAPHMEM_HOME="${GRAPHMEM_TEST_HOME:-$ROOT/.graphmem/test}"
export GRAPHMEM_LOCAL_BOLT_PORT="${GRAPHMEM_TEST_BOLT_PORT:-17687}"
export GRAPHMEM_LOCAL_HTTP_PORT="${GRAPHMEM_TEST_HTTP_PORT:-17474}"
unset GRAPHMEM_NEO4J_URI GRAPHMEM_NEO4J_USER GRAPHMEM_NEO4J_PASSWORD
# The suite embeds with the fast static model (thousands of texts a second on two CPUs); the
# default sentence transformer has its own tests (tests/retrieval/test_transformer.py).
export GRAPHMEM_EMBEDDER="${GRAPHMEM_TEST_EMBEDDER:-wordllama}"
# Webhook tests deliver to a receiver on loopback, retried fast, and wait out a stalling
# receiver's deadline (tests/events/test_webhooks.py). The dispatcher's poll is longer than
# any of their waits: what they see sent was sent at once on its commit, or at its retry
# (an idle poll of 0.1 s had cost every live app and service 2.5 CPU-s a minute with Neo4j).
export GRAPHMEM_WEBHOOK_ALLOW_PRIVATE=true GRAPHMEM_WEBHOOK_BACKOFF_S=0.2 GRAPHMEM_WEBHOOK_TIMEOUT_S=3
export GRAPHMEM_WEBHOOK_MAX_ATTEMPTS=4 GRAPHMEM_WEBHOOK_POLL_S=30
export GRAPHITI_TELEMETRY_ENABLED=false  # tests/portability/test_graphiti.py: no calls home
# Answers' usage is written by tests when they ask (tests/governance/test_pruning.py), not by a
# background flush landing in the middle of a "wrote nothing" check.
export GRAPHMEM_USAGE_FLUSH_S=3600
# The suite's store empties and fills all the time, so Neo4j kept planning its statements again
# as the statistics moved (878 times in 11 minutes of tests/api, facts and governance; planning
# was 57% of its CPU, by Java Flight Recorder): plans made once are good enough for tests.
export GRAPHMEM_LOCAL_MIN_REPLAN_S="${GRAPHMEM_TEST_MIN_REPLAN_S:-3600}"
# More options for the test Neo4j's JVM (none: Neo4j's own; bin/test gives the tests that
# start servers of their own C1 only).
export GRAPHMEM_LOCAL_JVM_OPTIONS="${GRAPHMEM_TEST_JVM_OPTIONS-}"
