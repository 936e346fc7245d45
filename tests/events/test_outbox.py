"""The outbox over the real Neo4j: an event exists exactly when its change committed, a
listener gets each once even when a transaction commits late or emits more than a page, a
job that fails for good says so, and old events are pruned."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from graphmem.core.config import Settings
from graphmem.core.namespaces import Namespace
from graphmem.db import migration_steps
from graphmem.db.database import Database, Tx
from graphmem.events import feed, outbox
from graphmem.events.outbox import Event, EventKind
from graphmem.jobs import queue as jobs

ALL = list(EventKind)


async def emitted(db: Database, ns: str, kind: EventKind, ids: list[str],
                  at: datetime | None = None) -> None:
    async def write(tx: Tx) -> None:
        await outbox.emit(tx, Namespace(ns), kind, ids, at)

    await db.transaction(write)


async def test_an_event_exists_only_when_its_transaction_committed(db: Database, ns: str) -> None:
    async def fails(tx: Tx) -> None:
        await outbox.emit(tx, Namespace(ns), EventKind.FACT_CREATED, ["fact_a"])
        raise RuntimeError("the change failed after emitting")

    with pytest.raises(RuntimeError):
        await db.transaction(fails)
    await emitted(db, ns, EventKind.FACT_CREATED, ["fact_b"])
    events = await outbox.since(db, Namespace(ns), ALL, datetime.now(UTC) - timedelta(minutes=1))
    assert [e.subject_id for e in events] == ["fact_b"]


async def test_pages_walk_through_each_transactions_events_once(db: Database, ns: str) -> None:
    """A transaction's events of one kind share a node; a page may end inside one."""
    at = datetime.now(UTC)
    await emitted(db, ns, EventKind.FACT_CREATED, [f"fact_{i}" for i in range(5)], at)
    await emitted(db, ns, EventKind.FACT_CREATED, ["fact_alone"], at)  # the same moment
    await emitted(db, ns, EventKind.FACT_RETRACTED, ["fact_0", "fact_1"], at)
    pages, after, after_id = [], at - timedelta(seconds=1), ""
    while page := await outbox.since(db, Namespace(ns), ALL, after, after_id, limit=2):
        pages.append(page)
        after, after_id = page[-1].at, page[-1].id
    told = [event for page in pages for event in page]
    assert [len(page) for page in pages] == [2, 2, 2, 2]
    assert len({e.id for e in told}) == 8 and [e.id for e in told] == sorted(e.id for e in told)
    assert sorted((e.kind.value, e.subject_id) for e in told) == sorted(
        [("fact.created", f"fact_{i}") for i in range(5)] + [("fact.created", "fact_alone"),
         ("fact.retracted", "fact_0"), ("fact.retracted", "fact_1")])
    [alone] = [e for e in told if e.subject_id == "fact_alone"]
    assert "." not in alone.id  # one change alone: its node's id, no suffix


async def test_events_written_one_node_each_keep_their_ids_after_migrating(
        db: Database, ns: str) -> None:
    """0019's data step: a node of the old shape (one `subject_id`) tells its event under
    the same id, and its pending delivery carries the subject itself."""
    at, suffix = datetime.now(UTC), uuid.uuid4().hex
    await db.driver.execute_query(
        "CREATE (e:Event {id: $event, ns: $ns, kind: 'fact.created', subject_id: 'fact_x', "
        "at: $at}) CREATE (:Delivery {id: $delivery, ns: $ns, event_id: $event})-[:CARRIES]->(e)",
        {"ns": ns, "at": at, "event": f"evt_{suffix}", "delivery": f"dlv_{suffix}"})
    await migration_steps.event_subjects(db)
    told = await outbox.since(db, Namespace(ns), ALL, at - timedelta(seconds=1))
    assert [(e.id, e.subject_id) for e in told] == [(f"evt_{suffix}", "fact_x")]
    rows, _, _ = await db.driver.execute_query(
        "MATCH (d:Delivery {id: $id}) RETURN d.subject_id AS subject", {"id": f"dlv_{suffix}"})
    assert rows[0]["subject"] == "fact_x"


@pytest.fixture
async def listener(db: Database, ns: str) -> AsyncIterator[asyncio.Queue[Event]]:
    got: asyncio.Queue[Event] = asyncio.Queue()
    events = feed.Feed(db, poll_s=0.05)

    async def listen() -> None:
        async for batch in events.follow(Namespace(ns), ALL):
            for event in batch:
                got.put_nowait(event)

    task = asyncio.create_task(listen())
    await asyncio.sleep(0.2)
    yield got
    task.cancel()
    await events.close()


async def drained(got: asyncio.Queue[Event], expected: int) -> list[Event]:
    """What the listener got once it has ``expected`` (ten seconds at most), and a moment
    more, so that one too many would show."""
    for _ in range(100):
        if got.qsize() >= expected:
            break
        await asyncio.sleep(0.1)
    await asyncio.sleep(0.3)
    return [got.get_nowait() for _ in range(got.qsize())]


async def test_a_listener_gets_each_event_once_however_they_commit(
        db: Database, ns: str, listener: asyncio.Queue[Event]) -> None:
    many = [f"fact_{i:04d}" for i in range(feed.PAGE + 200)]  # one transaction, one moment
    await emitted(db, ns, EventKind.FACT_CREATED, many)
    first = await drained(listener, len(many))
    assert sorted(e.subject_id for e in first) == many
    # A transaction that wrote its event just after those commits only now, long after the
    # listener looked past that moment: inside the look-back, it still comes.
    await emitted(db, ns, EventKind.FACT_RETRACTED, ["fact_late"],
                  first[-1].at + timedelta(milliseconds=1))
    late = await drained(listener, 1)
    assert [(e.kind, e.subject_id) for e in late] == [(EventKind.FACT_RETRACTED, "fact_late")]


async def test_a_job_failing_for_good_emits_job_failed(db: Database, settings: Settings,
                                                       ns: str) -> None:
    before = datetime.now(UTC) - timedelta(seconds=1)
    outcomes = []
    for final in (False, True):  # attempts left (queued again, no event), then for good
        queued = await jobs.enqueue(db, Namespace(ns), jobs.JobKind.EXTRACT, [])
        claim = await jobs.claim(db, "test-worker", 30, queued.id)
        assert claim is not None
        failed = await jobs.fail(db, claim, "refused", settings, final=final)
        assert failed is not None
        outcomes.append((failed.state, queued.id))
    assert [state for state, _ in outcomes] == [jobs.JobState.QUEUED, jobs.JobState.FAILED]
    events = await outbox.since(db, Namespace(ns), ALL, before)
    assert [(e.kind, e.subject_id) for e in events] == [(EventKind.JOB_FAILED, outcomes[1][1])]


async def test_events_are_pruned_after_their_keeping_time(db: Database, ns: str) -> None:
    now = datetime.now(UTC)
    await emitted(db, ns, EventKind.SUMMARY_STALE, ["sum_old"],
                  now - timedelta(days=outbox.EVENT_DAYS, minutes=1))
    await emitted(db, ns, EventKind.SUMMARY_STALE, ["sum_new"], now - timedelta(minutes=1))
    assert await outbox.prune(db, now) >= 1
    left = await outbox.since(db, Namespace(ns), ALL, now - timedelta(days=30))
    assert [e.subject_id for e in left] == ["sum_new"]


async def test_events_are_pruned_as_of_the_moment_given(db: Database, ns: str) -> None:
    """The housekeeping's moment decides what is old, not the wall clock: an hour on, an
    event that then passes its keeping time goes, one still within it stays. (An hour only:
    every other test's events are younger than that, in a store shared with them.)"""
    now = datetime.now(UTC)
    kept_until = now - timedelta(days=outbox.EVENT_DAYS)
    await emitted(db, ns, EventKind.SUMMARY_STALE, ["sum_due"], kept_until + timedelta(minutes=30))
    await emitted(db, ns, EventKind.SUMMARY_STALE, ["sum_kept"], kept_until + timedelta(hours=2))
    await outbox.prune(db, now + timedelta(hours=1))
    left = await outbox.since(db, Namespace(ns), ALL, now - timedelta(days=30))
    assert [e.subject_id for e in left] == ["sum_kept"]


@pytest.mark.parametrize("turns", range(3))
async def test_a_cancelled_rest_ends_cancelled_even_as_a_commit_wakes_it(turns: int) -> None:
    """A cancel the resting task accepted is never swallowed, whenever the commit's wake-up
    came (``asyncio.wait_for`` on Python 3.11 returned the wake-up instead)."""
    flag = asyncio.Event()
    resting = asyncio.create_task(outbox.rest(flag, 60.0))
    await asyncio.sleep(0)  # resting
    flag.set()
    for _ in range(turns):
        await asyncio.sleep(0)
    accepted = resting.cancel()
    await asyncio.wait({resting}, timeout=5)
    assert resting.done() and resting.cancelled() == accepted


async def test_every_waiter_is_woken_by_a_commit_and_only_while_it_waits(
        db: Database, ns: str) -> None:
    with outbox.commits(db) as first, outbox.commits(db) as second:
        await emitted(db, ns, EventKind.FACT_CREATED, ["fact_a"])
        assert first.is_set() and second.is_set()
        first.clear()  # one waiter's look takes no wake-up from the other
        assert second.is_set()
    with outbox.commits(db) as third:
        pass
    await emitted(db, ns, EventKind.FACT_CREATED, ["fact_b"])
    assert not third.is_set()


async def test_a_listener_gets_this_processs_events_at_their_commit_not_at_the_poll(
        db: Database, ns: str) -> None:
    events = feed.Feed(db, poll_s=60.0)
    got: asyncio.Queue[Event] = asyncio.Queue()

    async def listen() -> None:
        async for batch in events.follow(Namespace(ns), ALL):
            for event in batch:
                got.put_nowait(event)

    task = asyncio.create_task(listen())
    try:
        await asyncio.sleep(0.5)  # its first look found nothing; the next poll is a minute off
        await emitted(db, ns, EventKind.FACT_CREATED, ["fact_now"])
        event = await asyncio.wait_for(got.get(), 10)
        assert (event.kind, event.subject_id) == (EventKind.FACT_CREATED, "fact_now")
    finally:
        task.cancel()
        await events.close()
