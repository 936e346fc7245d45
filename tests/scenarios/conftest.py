"""The scenario suite: short conversations written the way people talk to an assistant, run
through the real client (``AsyncMemory``) against the real service, asserting what recall and
search show and what they must not. Each module is one topic; each test one conversation.
It is the specification of "memory behaves as the user meant" (README: *What search and
recall leave out*, *First person*, *Confidence*)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from graphmem_client import AsyncMemory
from starlette.applications import Starlette


@pytest.fixture
async def memory(app: Starlette, admin_token: str, ns: str) -> AsyncIterator[AsyncMemory]:
    """One user's memory, in a fresh namespace, over the app itself (ASGI, no port)."""
    async with AsyncMemory("http://graphmem.test/graphql", admin_token, ns,
                           transport=httpx.ASGITransport(app=app)) as memory:
        yield memory


@pytest.fixture
async def other_memory(app: Starlette, admin_token: str,
                       other: str) -> AsyncIterator[AsyncMemory]:
    """Another user's memory, in a namespace of its own."""
    async with AsyncMemory("http://graphmem.test/graphql", admin_token, other,
                           transport=httpx.ASGITransport(app=app)) as memory:
        yield memory
