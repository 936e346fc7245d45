"""Hot facts per entity, so recall does not re-read them every turn.

An entry is keyed by the entity's ``write_version``: every write that changes one of its facts
locks it and moves the version (see ``entities.lock``), and recall reads the version anyway
while linking entities, so a changed entity is a miss, never a stale hit — in this process or
any other. Facts also stop being current as time passes: an entry expires at the earliest
``valid_to`` among its facts, and after ``TTL`` at the latest (which also bounds how late a
fact whose validity starts in the future appears). Shared by all sessions of a namespace:
the same person's facts are hot across conversations.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timedelta

from graphmem.facts.model import Fact
from graphmem.observability import metrics

TTL = timedelta(seconds=60)
FactsAbout = tuple[list[Fact], list[Fact]]  # (as subject, as object)


@dataclass(frozen=True)
class _Entry:
    version: int
    expires_at: datetime
    facts: FactsAbout


class FactCache:
    def __init__(self, max_entities: int = 10_000) -> None:
        self._entries: OrderedDict[tuple[str, str], _Entry] = OrderedDict()
        self.max_entities = max_entities
        self.hits = 0
        self.misses = 0

    def get(self, ns: str, entity_id: str, version: int, now: datetime) -> FactsAbout | None:
        entry = self._entries.get((ns, entity_id))
        if entry is None or entry.version != version or now >= entry.expires_at:
            self.misses += 1
            metrics.FACT_CACHE.labels("miss").inc()
            return None
        self._entries.move_to_end((ns, entity_id))
        self.hits += 1
        metrics.FACT_CACHE.labels("hit").inc()
        return entry.facts

    def put(self, ns: str, entity_id: str, version: int, now: datetime,
            facts: FactsAbout) -> None:
        ends = [f.valid_to for f in facts[0] + facts[1] if f.valid_to and f.valid_to > now]
        self._entries[(ns, entity_id)] = _Entry(version, min([now + TTL, *ends]), facts)
        self._entries.move_to_end((ns, entity_id))
        while len(self._entries) > self.max_entities:
            self._entries.popitem(last=False)

    def forget(self, ns: str) -> None:
        """Drop a namespace's entries (erasure)."""
        for key in [k for k in self._entries if k[0] == ns]:
            del self._entries[key]
