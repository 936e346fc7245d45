"""API keys over the real Neo4j: verified by hash, remembered briefly, revocation honoured."""

from __future__ import annotations

import pytest

from graphmem.core.errors import Unauthenticated
from graphmem.db.database import Database
from graphmem.security.auth import KeyCache, authenticate, create_key, revoke_key


class Clock:
    """Monotonic seconds that pass only when the test says so."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


async def test_a_revoked_key_stops_working_once_the_cache_time_has_passed(db: Database) -> None:
    token = await create_key(db, "cache-test", grants=["cache/*"], admin=False)
    header = f"Bearer {token}"
    clock = Clock()
    cached = KeyCache(60, clock=clock)
    principal = await authenticate(db, header, cached)
    assert principal.name == "cache-test" and principal.grants == ("cache/*",)
    await revoke_key(db, principal.key_id)
    with pytest.raises(Unauthenticated):
        await authenticate(db, header, KeyCache(0))  # no cache: refused at once
    clock.now += 59.9
    assert (await authenticate(db, header, cached)) == principal  # within its TTL
    clock.now += 0.1
    with pytest.raises(Unauthenticated):
        await authenticate(db, header, cached)  # the TTL has passed: asked again, refused
    with pytest.raises(Unauthenticated):
        await authenticate(db, header, cached)  # and the refusal is not remembered as a pass


async def test_a_remembered_key_is_not_looked_up_again_within_its_time(db: Database) -> None:
    """The cache does its job: a key verified once is not read from Neo4j again (here: its
    node is gone, yet the key still passes until the TTL ends)."""
    token = await create_key(db, "cache-hit", grants=["cache/*"], admin=False)
    clock = Clock()
    cached = KeyCache(30, clock=clock)
    principal = await authenticate(db, f"Bearer {token}", cached)
    await db.driver.execute_query("MATCH (k:ApiKey {key_id: $id}) DETACH DELETE k",
                                  {"id": principal.key_id})
    clock.now += 29
    assert await authenticate(db, f"Bearer {token}", cached) == principal
    clock.now += 1
    with pytest.raises(Unauthenticated):
        await authenticate(db, f"Bearer {token}", cached)


async def test_unknown_and_malformed_keys_are_refused(db: Database) -> None:
    cache = KeyCache(3600, clock=Clock())
    for header in (None, "Basic x", "Bearer nope", "Bearer gm_unknown_token"):
        with pytest.raises(Unauthenticated):
            await authenticate(db, header, cache)


async def test_a_refusal_is_never_remembered(db: Database) -> None:
    """A key refused once (here: revoked, then restored by an operator) passes as soon as it
    is valid again; only passes are cached."""
    token = await create_key(db, "restored", grants=["cache/*"], admin=False)
    cache = KeyCache(3600, clock=Clock())
    principal = await authenticate(db, f"Bearer {token}", KeyCache(0))
    await revoke_key(db, principal.key_id)
    with pytest.raises(Unauthenticated):
        await authenticate(db, f"Bearer {token}", cache)
    await db.driver.execute_query("MATCH (k:ApiKey {key_id: $id}) REMOVE k.revoked_at",
                                  {"id": principal.key_id})
    assert await authenticate(db, f"Bearer {token}", cache) == principal
