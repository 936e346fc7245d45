"""One HTTP client for the tests' plain calls to a service: readiness polls, one-off posts.

``httpx.get`` and ``httpx.post`` build a client per call, and with it an SSL context from the
CA bundle: about 45 ms of CPU each here. A readiness poll made 20 to 30 of them per service
started (69 tests of tests/api and tests/clients: 109 → 92 CPU-s). No connection is kept
alive: the services come and go, and a kept one could be closed by its server (uvicorn
closes idle ones after 5 s) just as a test reuses it. (httpx's sync client is thread-safe.)"""

from __future__ import annotations

import httpx

HTTP = httpx.Client(limits=httpx.Limits(max_keepalive_connections=0))
