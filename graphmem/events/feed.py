"""Following namespaces' events: each one once, in the order it happened, from the moment the
listener started.

A process looks at the outbox for all its listeners (``Feed``), whatever their number, once
per interval and at once when it commits events itself, and hands each event to the
listeners of its namespace and kind: 500 subscriptions had polled 500 times per interval,
half a core and Neo4j busy for nothing. A transaction
stamps its events when it writes them but they are seen only once it commits, so every poll
looks ``LOOKBACK`` back and skips what it already gave. A transaction that commits later than
that after writing its events (graphmem's take milliseconds) would have them missed by a
live listener; they stay in the outbox for ``EVENT_DAYS``. A listener that does not read keeps
more than ``MAX_QUEUED`` events waiting from one look to the next is ended (``FellBehind``),
never silently skipped."""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from graphmem.core.errors import GraphmemError, QueryTooCostly
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database
from graphmem.events.outbox import Event, EventKind, commits, rest, since_any

log = logging.getLogger(__name__)
LOOKBACK = timedelta(seconds=10)
PAGE = 1_000
MAX_QUEUED = 10_000


def _now() -> datetime:
    return datetime.now(UTC)


class FellBehind(QueryTooCostly):
    """The listener left more than ``MAX_QUEUED`` events unread."""


@dataclass(eq=False)
class _Listener:
    kinds: frozenset[EventKind]
    started: datetime
    queue: asyncio.Queue[Event] = field(default_factory=asyncio.Queue)
    behind: bool = False

    def offer(self, event: Event) -> None:
        if event.kind in self.kinds and event.at >= self.started and not self.behind:
            self.queue.put_nowait(event)


class Feed:
    """One poll for every listener of the process; it runs while anyone listens."""

    def __init__(self, db: Database, poll_s: float, clock: Callable[[], datetime] = _now,
                 ) -> None:
        self.db, self.poll_s, self.clock = db, poll_s, clock
        self._listeners: dict[Namespace, set[_Listener]] = defaultdict(set)
        self._given: dict[str, datetime] = {}  # id -> at, within the look-back window
        self._poll: asyncio.Task[None] | None = None

    async def follow(self, ns: Namespace, kinds: list[EventKind],
                     ) -> AsyncIterator[list[Event]]:
        """Forever: the namespace's new events of these kinds, each once, in batches of
        what arrived together (one look; a large transaction's events come as one batch)."""
        listener = _Listener(frozenset(kinds), self.clock())
        self._listeners[ns].add(listener)
        if self._poll is None or self._poll.done():
            self._poll = asyncio.create_task(self._run())
        try:
            while True:
                if listener.behind:
                    raise FellBehind(f"this subscription left {MAX_QUEUED} events unread and "
                                     "was ended; subscribe again (and ask for fewer kinds)")
                batch = [await listener.queue.get()]
                while not listener.queue.empty() and len(batch) < PAGE:
                    batch.append(listener.queue.get_nowait())
                yield batch
        finally:
            self._listeners[ns].discard(listener)
            if not self._listeners[ns]:
                del self._listeners[ns]

    async def close(self) -> None:
        if self._poll is not None:
            self._poll.cancel()
            await asyncio.gather(self._poll, return_exceptions=True)

    async def _run(self) -> None:
        """Look while anyone listens: at once when this process commits events, else every
        ``poll_s`` (other processes' events)."""
        with commits(self.db) as committed:
            while self._listeners:
                committed.clear()  # before the look: a commit during it ends the rest
                try:
                    await self._look()
                except GraphmemError as exc:  # Neo4j away: the next look catches up
                    log.warning("the event feed could not look: %s", exc.code)
                await rest(committed, self.poll_s)

    async def _look(self) -> None:
        for group in self._listeners.values():
            for listener in group:  # still holding too much since the last look: behind
                listener.behind = listener.behind or listener.queue.qsize() > MAX_QUEUED
        namespaces = sorted(self._listeners)
        started = min(lst.started for group in self._listeners.values() for lst in group)
        horizon = self.clock() - LOOKBACK
        after, after_id = max(started, horizon), ""
        while True:
            page = await since_any(self.db, namespaces, after, after_id, PAGE)
            for event in page:
                if event.id not in self._given:
                    self._given[event.id] = event.at
                    for listener in self._listeners.get(Namespace(event.namespace), ()):
                        listener.offer(event)
            if len(page) < PAGE:
                break
            after, after_id = page[-1].at, page[-1].id
        self._given = {i: at for i, at in self._given.items() if at >= horizon}
