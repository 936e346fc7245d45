"""One sync of a namespace at a time (``federation/claims``), on the real Neo4j: a claim is
its holder's until released or until it runs out unrenewed (a holder that died)."""

from __future__ import annotations

import asyncio

import pytest

from graphmem.core.errors import ConcurrentChange
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database
from graphmem.portability.federation import claims


async def test_a_claim_is_its_holders_until_released_or_run_out(
        db: Database, ns: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(claims, "LEASE_S", 3)  # 15 minutes in service
    space = Namespace(ns)
    await claims.claim(db, space, "peer", "a")
    with pytest.raises(ConcurrentChange):
        await claims.claim(db, space, "peer", "b")
    await claims.claim(db, space, "another-peer", "b")  # a sync with another service
    await claims.release(db, space, "peer", "b")  # not b's to give up
    with pytest.raises(ConcurrentChange):
        await claims.claim(db, space, "peer", "b")
    await asyncio.sleep(1.6)
    await claims.claim(db, space, "peer", "a")  # renewed, as every page does
    await asyncio.sleep(1.6)
    with pytest.raises(ConcurrentChange):  # past the first claim's lease, not the renewal's
        await claims.claim(db, space, "peer", "b")
    await asyncio.sleep(1.6)  # a died holding it: its claim runs out
    await claims.claim(db, space, "peer", "b")
    with pytest.raises(ConcurrentChange):
        await claims.claim(db, space, "peer", "a")
    await claims.release(db, space, "peer", "b")
    await claims.claim(db, space, "peer", "a")
