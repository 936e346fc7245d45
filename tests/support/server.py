"""`graphmem serve` as a user runs it, in a subprocess on a free port, for tests of what runs
against a real service (the examples, the sync client, the MCP server)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serving(*, until: str = "/readyz", **env: str) -> Iterator[str]:
    """`graphmem serve` with this process's environment (the suite's Neo4j) and ``env`` over
    it; yields its base URL once `/readyz` says ready (``until``: another path that must
    answer 200 first, e.g. `/healthz` for a service that may never be ready), and stops it
    afterwards.

    It embeds nothing unless ``env`` says so: the suite's in-process app embeds the shared
    queue, and a test that counts what a process embeds must not share it with bystanders."""
    port = free_port()
    # Its log goes to a file: a pipe nobody reads fills up (one line per request) and then
    # blocks the server mid-write.
    with tempfile.TemporaryFile() as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "graphmem", "serve", "--port", str(port)],
            env={**os.environ, "GRAPHMEM_EMBEDDING_WORKER": "false", **env},
            stdout=subprocess.DEVNULL, stderr=log)
        url = f"http://127.0.0.1:{port}"
        try:
            for _ in range(600):
                try:
                    if httpx.get(f"{url}{until}", timeout=1).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if server.poll() is not None:
                    log.seek(0)
                    raise AssertionError(log.read().decode(errors="replace"))
                time.sleep(0.1)
            yield url
        finally:
            server.terminate()
            server.wait(timeout=20)
