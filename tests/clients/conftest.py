"""A real `graphmem serve` for the sync client (one per module), the ASGI app for the async one."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
from graphmem_client import AsyncMemory
from starlette.applications import Starlette

from graphmem.db.database import Database


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server_url(db: Database) -> Iterator[str]:
    """`graphmem serve` on a free port, ready (Neo4j up and migrated: the `db` fixture)."""
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "graphmem.cli", "serve", "--port", str(port)],
        env=os.environ.copy(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                if httpx.get(f"{url}/readyz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert server.poll() is None, server.stderr.read().decode() if server.stderr else ""
            time.sleep(0.1)
        yield f"{url}/graphql"
    finally:
        server.terminate()
        server.wait(timeout=20)


@pytest.fixture
async def amemory(app: Starlette, admin_token: str, ns: str) -> AsyncIterator[AsyncMemory]:
    async with AsyncMemory("http://graphmem.test/graphql", admin_token, ns,
                           transport=httpx.ASGITransport(app=app)) as memory:
        yield memory
