"""API keys over the real Neo4j: verified by hash, remembered briefly, revocation honoured."""

from __future__ import annotations

import pytest

from graphmem.auth import KeyCache, authenticate, create_key, revoke_key
from graphmem.db import Database
from graphmem.errors import Unauthenticated


async def test_a_revoked_key_stops_working_within_the_cache_time(db: Database) -> None:
    token = await create_key(db, "cache-test", grants=["cache/*"], admin=False)
    header = f"Bearer {token}"
    uncached, cached = KeyCache(0), KeyCache(3600)
    principal = await authenticate(db, header, cached)
    assert principal.name == "cache-test" and principal.grants == ("cache/*",)
    await revoke_key(db, principal.key_id)
    with pytest.raises(Unauthenticated):
        await authenticate(db, header, uncached)  # no cache: refused at once
    assert (await authenticate(db, header, cached)) == principal  # within its TTL
    cached.ttl_s = 0
    cached._known.clear()
    with pytest.raises(Unauthenticated):
        await authenticate(db, header, cached)


async def test_unknown_and_malformed_keys_are_refused(db: Database) -> None:
    cache = KeyCache(3600)
    for header in (None, "Basic x", "Bearer nope", "Bearer gm_unknown_token"):
        with pytest.raises(Unauthenticated):
            await authenticate(db, header, cache)
    assert cache._known == {}  # refusals are never remembered
