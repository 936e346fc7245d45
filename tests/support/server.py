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

from tests.support.http import HTTP

# The logs of the services running now: a failing test shows their last lines (the conftest's
# report hook), since a service's own error is often the only clue to why a call failed.
RUNNING_LOGS: list[tempfile._TemporaryFileWrapper[bytes]] = []


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
    with tempfile.NamedTemporaryFile(prefix="graphmem-serve-", suffix=".log") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "graphmem", "serve", "--port", str(port)],
            env={**os.environ, "GRAPHMEM_EMBEDDING_WORKER": "false", **env},
            stdout=subprocess.DEVNULL, stderr=log)
        url = f"http://127.0.0.1:{port}"
        try:
            for _ in range(600):
                try:
                    if HTTP.get(f"{url}{until}", timeout=1).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if server.poll() is not None:
                    log.seek(0)
                    raise AssertionError(log.read().decode(errors="replace"))
                time.sleep(0.1)
            RUNNING_LOGS.append(log)
            try:
                yield url
            except BaseException:
                sys.stderr.write(log_tails())  # the test failed inside: show why, if it says
                raise
        finally:
            if log in RUNNING_LOGS:
                RUNNING_LOGS.remove(log)
            server.terminate()
            server.wait(timeout=20)


def log_tails(lines: int = 40) -> str:
    """The last ``lines`` of each running service's log."""
    tails = []
    for log in RUNNING_LOGS:
        with open(log.name, "rb") as reading:
            text = reading.read().decode(errors="replace").splitlines()[-lines:]
        tails.append(f"--- {log.name}\n" + "\n".join(text))
    return "\n".join(tails)
