"""The outbox: the events of a change, written by the transaction that makes it, so an event
exists if and only if its change was committed (a crash neither loses nor invents one). An
event holds its kind, the id of what changed and when, never content: a listener that may
read the namespace reads the content itself. Events are kept ``EVENT_DAYS``, then pruned by
the worker's housekeeping.

A transaction stores its events of one kind in one ``Event`` node (``subject_ids``, up to
``NODE_EVENTS``), and they are told one by one, each with an id of its own
(``cypher/events/since_any.cypher``). A node per event had cost a 500-fact ``assertFacts``
about 35 ms of its 350–400 (500 events written and committed: 52 ms, one node of 500: 16).

A commit that wrote events wakes whoever waits for one in this process (``commits``): the
webhook dispatcher sends at once and the subscriptions' feed looks at once, instead of at
their next poll (which still finds what other processes commit)."""

from __future__ import annotations

import asyncio
import contextlib
import enum
import time
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import partial

from graphmem.core.namespaces import Namespace
from graphmem.core.timeutil import parse_stored_datetime, to_native
from graphmem.db.database import Database, Row, Tx
from graphmem.db.slots import Slot

EVENT_DAYS = 7
PRUNE_BATCH = 10_000  # nodes
NODE_EVENTS = 10_000  # the ids' five-digit suffix orders up to 100,000
WAKE_GAP_S = 0.05  # the shortest rest of a waiter woken by commits
# Who waits for this process's next commit of events: a database's, made on first use.
WAITING: Slot[set[asyncio.Event]] = Slot("waiting for events committed")


class EventKind(enum.Enum):
    FACT_CREATED = "fact.created"
    FACT_SUPERSEDED = "fact.superseded"
    FACT_RETRACTED = "fact.retracted"
    CONFLICT_OPENED = "conflict.opened"
    CONFLICT_RESOLVED = "conflict.resolved"
    SUMMARY_WRITTEN = "summary.written"
    SUMMARY_STALE = "summary.stale"
    ERASURE_DONE = "erasure.done"
    JOB_FAILED = "job.failed"


@dataclass(frozen=True)
class Event:
    id: str
    namespace: str
    kind: EventKind
    subject_id: str  # the fact, conflict, summary, erasure receipt or job
    at: datetime

    @classmethod
    def from_row(cls, row: Row, ns: str) -> Event:
        return cls(id=row["id"], namespace=ns, kind=EventKind(row["kind"]),
                   subject_id=row["subject_id"], at=parse_stored_datetime(row["at"]))


async def emit(tx: Tx, ns: Namespace, kind: EventKind, subject_ids: Iterable[str],
               now: datetime | None = None) -> None:
    """Record that these changed, inside the transaction that changes them."""
    subjects = list(dict.fromkeys(subject_ids))
    if subjects:
        tx.after_commit(partial(notify_committed, tx.db))
        await tx.run("events/emit", ns=ns, kind=kind.value, now=to_native(now or datetime.now(UTC)),
                     batches=[{"id": f"evt_{uuid.uuid4().hex}",
                               "subject_ids": subjects[i:i + NODE_EVENTS]}
                              for i in range(0, len(subjects), NODE_EVENTS)])


@contextlib.contextmanager
def commits(db: Database) -> Iterator[asyncio.Event]:
    """A flag of the caller's own, set whenever a transaction of this process that wrote
    events commits, for as long as the block runs. Each waiter has its own, so one that
    clears it (before each look at the outbox) takes no wake-up from another."""
    flag, waiting = asyncio.Event(), db.keep(WAITING, set)
    waiting.add(flag)
    try:
        yield flag
    finally:
        waiting.discard(flag)


def notify_committed(db: Database) -> None:
    """Wake whoever waits in ``commits``: a transaction of this process wrote events and
    has committed (``emit`` has it called then)."""
    for flag in db.keep(WAITING, set):
        flag.set()


async def rest(flag: asyncio.Event, seconds: float) -> None:
    """Wait ``seconds``, ended early when ``flag`` is set, but never shorter than
    ``WAKE_GAP_S``: under a stream of commits a waiter looks at most so often, not after every
    one. ``asyncio.timeout``, not ``wait_for``: on Python 3.11 ``wait_for`` swallowed a cancel
    that came as the flag was set, and a shutdown awaiting the waiter hung for good."""
    began = time.monotonic()
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(seconds):
            await flag.wait()
    if (left := min(seconds, WAKE_GAP_S) - (time.monotonic() - began)) > 0:
        await asyncio.sleep(left)


async def since(db: Database, ns: Namespace, kinds: list[EventKind], after: datetime,
                after_id: str = "", limit: int = 1_000) -> list[Event]:
    """One namespace's events of these kinds after (``after``, ``after_id``), oldest first
    (a page of ``limit`` events, fewer once filtered by kind)."""
    page = await since_any(db, [ns], after, after_id, limit)
    return [event for event in page if event.kind in kinds]


async def since_any(db: Database, namespaces: list[Namespace], after: datetime,
                    after_id: str = "", limit: int = 1_000) -> list[Event]:
    """Every kind of event of these namespaces after (``after``, ``after_id``), oldest first:
    the feed's one look for all its listeners."""
    rows = await db.read("events/since_any", namespaces=namespaces, after=to_native(after),
                         after_id=after_id, after_node=after_id.partition(".")[0], limit=limit)
    return [Event.from_row(row, row["ns"]) for row in rows]


async def prune(db: Database, now: datetime) -> int:
    """Drop events older than ``EVENT_DAYS``, in bounded transactions; how many nodes (and
    deliveries) went."""
    before, total = to_native(now - timedelta(days=EVENT_DAYS)), 0
    while pruned := int((await db.write("events/prune", before=before, batch=PRUNE_BATCH))[0]
                        ["pruned"]):
        total += pruned
        if pruned < PRUNE_BATCH:
            break
    return total
