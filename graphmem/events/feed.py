"""Following a namespace's events: each one once, in the order it happened, from the moment
the listener started. The outbox is polled; a transaction stamps its events when it writes
them but they are seen only once it commits, so every poll looks ``LOOKBACK`` back and skips
what it already gave. A transaction that commits later than that after writing its events
(graphmem's take milliseconds) would have them missed by a live listener; they stay in the
outbox for ``EVENT_DAYS``."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta

from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database
from graphmem.events.outbox import Event, EventKind, since

LOOKBACK = timedelta(seconds=10)
PAGE = 1_000


def _now() -> datetime:
    return datetime.now(UTC)


async def follow(db: Database, ns: Namespace, kinds: list[EventKind], poll_s: float,
                 clock: Callable[[], datetime] = _now) -> AsyncIterator[Event]:
    """Forever: the namespace's new events of these kinds, each once."""
    started = clock()
    given: dict[str, datetime] = {}  # id -> at, within the look-back window
    while True:
        horizon = clock() - LOOKBACK
        after, after_id = max(started, horizon), ""
        while True:
            page = await since(db, ns, kinds, after, after_id, PAGE)
            for event in page:
                if event.id not in given:
                    given[event.id] = event.at
                    yield event
            if len(page) < PAGE:
                break
            after, after_id = page[-1].at, page[-1].id
        given = {i: at for i, at in given.items() if at >= horizon}
        await asyncio.sleep(poll_s)
