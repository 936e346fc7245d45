"""The process's one poll of the outbox: however many listen, one look per interval; each
listener gets its namespace's events of its kinds, once, from when it started; one that does
not read is ended, never silently skipped."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest

from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database
from graphmem.events import feed, outbox
from graphmem.events.outbox import Event, EventKind, emit
from graphmem.observability import metrics
from tests.support.graph import delete_namespace

pytestmark = pytest.mark.hostile("subscriptions")
ALL = list(EventKind)


def looks() -> float:
    """How many times any feed looked at the outbox, from the statement's latency count."""
    for sample in next(iter(metrics.CYPHER_SECONDS.collect())).samples:
        if sample.name.endswith("_count") and sample.labels.get("statement") == "events/since_any":
            return float(sample.value)
    return 0.0


async def emitted(db: Database, ns: str, kind: EventKind, subjects: list[str]) -> None:
    await db.transaction(lambda tx: emit(tx, Namespace(ns), kind, subjects))


async def listening(events: feed.Feed, ns: str, kinds: list[EventKind],
                    got: list[Event]) -> asyncio.Task[None]:
    async def listen() -> None:
        async for batch in events.follow(Namespace(ns), kinds):
            got.extend(batch)

    return asyncio.create_task(listen())


@pytest.fixture
async def namespaces(db: Database) -> AsyncIterator[list[str]]:
    names = [f"test/feed-{uuid.uuid4().hex[:8]}-{i}" for i in range(10)]
    yield names
    for name in names:
        await delete_namespace(db, name)


async def test_fifty_listeners_share_one_look_per_interval(
        db: Database, namespaces: list[str]) -> None:
    events = feed.Feed(db, poll_s=0.1)
    got: dict[int, list[Event]] = {i: [] for i in range(50)}
    tasks = [await listening(events, namespaces[i % 10],
                             [EventKind.FACT_CREATED] if i % 2 else ALL, got[i])
             for i in range(50)]
    try:
        await asyncio.sleep(0.3)
        before = looks()
        for ns in namespaces:
            await emitted(db, ns, EventKind.FACT_CREATED, [f"fact_{ns}"])
            await emitted(db, ns, EventKind.SUMMARY_STALE, [f"sum_{ns}"])
        await asyncio.sleep(1.0)
        during = looks() - before
    finally:
        for task in tasks:
            task.cancel()
        await events.close()
    # Woken by the commits, at most one look a WAKE_GAP_S for all fifty, not fifty each
    assert during <= 1.3 / outbox.WAKE_GAP_S + 2
    for i, events_got in got.items():
        ns = namespaces[i % 10]
        wanted = [f"fact_{ns}"] if i % 2 else [f"fact_{ns}", f"sum_{ns}"]
        assert [e.subject_id for e in events_got] == wanted, i


async def test_a_listener_that_does_not_read_is_ended(
        db: Database, ns: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(feed, "MAX_QUEUED", 5)
    events = feed.Feed(db, poll_s=0.05)
    got: list[Event] = []
    reader = await listening(events, ns, ALL, got)
    stream = aiter(events.follow(Namespace(ns), ALL))  # reads one batch, then no more
    first = asyncio.ensure_future(anext(stream))
    await asyncio.sleep(0.2)
    await emitted(db, ns, EventKind.FACT_CREATED, ["fact_first"])
    try:
        assert [e.subject_id for e in await asyncio.wait_for(first, 5)] == ["fact_first"]
        await emitted(db, ns, EventKind.FACT_CREATED, [f"fact_{i}" for i in range(20)])
        await asyncio.sleep(0.5)  # several looks while it holds 20 unread
        with pytest.raises(feed.FellBehind):
            await anext(stream)
        assert len(got) == 21  # the listener that reads is not held back
    finally:
        reader.cancel()
        await events.close()


async def test_a_listener_is_told_nothing_from_before_it_started(
        db: Database, namespaces: list[str]) -> None:
    """Each listener from its own start: an event stamped between an earlier listener's start
    and a later one's (its transaction committing after both) goes to the earlier only."""
    ns = namespaces[0]
    events = feed.Feed(db, poll_s=0.1)
    early: list[Event] = []
    late: list[Event] = []
    first = await listening(events, ns, ALL, early)
    await asyncio.sleep(0.3)
    between = datetime.now(UTC)
    await asyncio.sleep(0.3)
    second = await listening(events, ns, ALL, late)
    await asyncio.sleep(0.3)
    try:
        await db.transaction(lambda tx: emit(tx, Namespace(ns), EventKind.FACT_CREATED,
                                             ["stamped_before"], between))
        await emitted(db, ns, EventKind.FACT_CREATED, ["after"])
        for _ in range(100):
            if len(early) >= 2 and late:
                break
            await asyncio.sleep(0.1)
        await asyncio.sleep(0.5)  # anything more would have come by now
        assert sorted(e.subject_id for e in early) == ["after", "stamped_before"]
        assert [e.subject_id for e in late] == ["after"]
    finally:
        for task in (first, second):
            task.cancel()
        await events.close()
