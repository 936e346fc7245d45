"""Which facts and episodes answers use, recorded off the request path.

``recall``, ``search`` and ``facts`` note the ids they return; a background task writes the
notes every ``GRAPHMEM_USAGE_FLUSH_S`` seconds, one statement per namespace, as
``last_used_at`` on each node (``retrieval/usage/record``). Pruning spares what is in use. A crash
loses at most one interval's notes: usage is a hint for letting go of what nobody needs, not
memory, so it is not worth a write on every read.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Iterable
from datetime import UTC, datetime

from graphmem.core.timeutil import to_native
from graphmem.db.database import Database

log = logging.getLogger(__name__)
MAX_PENDING = 100_000  # ids held between flushes; past it, notes wait for the next one


class UsageLog:
    """The ids answers returned since the last flush, per namespace and kind."""

    def __init__(self) -> None:
        self._facts: dict[str, set[str]] = defaultdict(set)
        self._episodes: dict[str, set[str]] = defaultdict(set)
        self._held = 0

    def note(self, ns: str, facts: Iterable[str] = (), episodes: Iterable[str] = ()) -> None:
        if self._held >= MAX_PENDING:
            return
        for kind, ids in ((self._facts, facts), (self._episodes, episodes)):
            before = len(kind[ns])
            kind[ns].update(ids)
            self._held += len(kind[ns]) - before

    async def flush(self, db: Database, now: datetime | None = None) -> int:
        """Write what was noted (as used at ``now``); how many nodes were marked."""
        facts, episodes = self._facts, self._episodes
        self._facts, self._episodes, self._held = defaultdict(set), defaultdict(set), 0
        moment = to_native(now or datetime.now(UTC))
        used = 0
        for ns in sorted(set(facts) | set(episodes)):
            rows = await db.write("retrieval/usage/record", ns=ns, now=moment,
                                  facts=sorted(facts.get(ns, ())),
                                  episodes=sorted(episodes.get(ns, ())))
            used += int(rows[0]["used"])
        return used


async def run_flusher(db: Database, usage: UsageLog, interval_s: float) -> None:
    """Forever: flush every ``interval_s``; a failed flush is logged and its notes dropped."""
    while True:
        await asyncio.sleep(interval_s)
        try:
            await usage.flush(db)
        except Exception as exc:  # Neo4j away: usage is a hint, the next round goes on
            log.warning("usage not recorded (%s)", type(exc).__name__)
