"""Work riding along with a request's next transaction commits with it, once, or not at all."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

import pytest
from neo4j.exceptions import ConstraintError

from graphmem.db import rider
from graphmem.db.database import Database, Tx


def noting(operation: str, ns: str) -> Callable[[Tx], Awaitable[None]]:
    async def note(tx: Tx) -> None:
        await tx.run("governance/audit/record", ns=ns, now=datetime.now(UTC), events=[{
            "id": f"audit_{operation}", "operation": operation, "actor": "test",
            "key_id": "key", "outcome": "ok", "request_id": None}])
    return note


async def noted(db: Database, ns: str) -> list[str]:
    rows, _, _ = await db.driver.execute_query(
        "MATCH (a:AuditEvent {ns: $ns}) RETURN a.operation AS op ORDER BY op", {"ns": ns})
    return [r["op"] for r in rows]


async def test_it_commits_with_the_first_transaction_only(db: Database, ns: str) -> None:
    with rider.riding(noting("ride", ns)) as riding:
        await db.transaction(noting("first", ns))
        assert riding.committed
        await db.transaction(noting("second", ns))
    await db.transaction(noting("after", ns))
    assert await noted(db, ns) == ["after", "first", "ride", "second"]


async def test_a_failed_transaction_takes_it_down_and_the_next_carries_it(
        db: Database, ns: str) -> None:
    async def fail(tx: Tx) -> None:
        await noting("failed", ns)(tx)
        raise ValueError("refused")

    with rider.riding(noting("ride", ns)) as riding:
        with pytest.raises(ValueError):
            await db.transaction(fail)
        assert not riding.committed and await noted(db, ns) == []
        await db.transaction(noting("next", ns))
    assert riding.committed
    assert await noted(db, ns) == ["next", "ride"]


async def test_when_its_own_work_fails_the_transaction_fails_with_it(
        db: Database, ns: str) -> None:
    # The same id twice: a constraint violation, once the rider has joined.
    with rider.riding(noting("change", ns)) as riding, pytest.raises(ConstraintError):
        await db.transaction(noting("change", ns))
    assert not riding.committed and await noted(db, ns) == [], "no change without its record"


async def test_without_a_transaction_it_never_commits(db: Database, ns: str) -> None:
    with rider.riding(noting("ride", ns)) as riding:
        await db.read("governance/audit/page", ns=ns, limit=1, after_t=None, after_id=None)
    assert not riding.committed and await noted(db, ns) == []
