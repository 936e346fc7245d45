"""What a namespace holds, by kind, and what needs attention (stale summaries, open
conflicts, embeddings not yet written)."""

from __future__ import annotations

from dataclasses import dataclass

from graphmem.db import Database
from graphmem.namespaces import Namespace


@dataclass(frozen=True)
class MemoryStats:
    sessions: int
    episodes: int
    entities: int
    believed_facts: int
    fact_versions: int
    summaries: int
    stale_summaries: int
    open_conflicts: int
    pending_embeddings: int


async def of_namespace(db: Database, ns: Namespace) -> MemoryStats:
    row = (await db.read("memory/stats", ns=ns))[0]
    return MemoryStats(**row)
