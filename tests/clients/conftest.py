"""A real `graphmem serve` for the sync client (one per module), the ASGI app for the async one."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
from graphmem_client import AsyncMemory
from starlette.applications import Starlette

from graphmem.db.database import Database
from tests.support.server import serving


@pytest.fixture(scope="module")
def server_url(db: Database) -> Iterator[str]:
    """`graphmem serve` on a free port, ready (Neo4j up and migrated: the `db` fixture)."""
    with serving() as url:
        yield f"{url}/graphql"


@pytest.fixture
async def amemory(app: Starlette, admin_token: str, ns: str) -> AsyncIterator[AsyncMemory]:
    async with AsyncMemory("http://graphmem.test/graphql", admin_token, ns,
                           transport=httpx.ASGITransport(app=app)) as memory:
        yield memory
