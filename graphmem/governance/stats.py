"""What a namespace holds, by kind, and what needs attention (stale summaries, open
conflicts, embeddings not yet written, pipeline jobs waiting or failed)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from graphmem.core.namespaces import Namespace
from graphmem.core.timeutil import maybe_datetime
from graphmem.db.database import Database


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
    queued_jobs: int
    failed_jobs: int
    oldest_job_at: datetime | None  # the oldest job not yet finished: is the queue moving?


async def of_namespace(db: Database, ns: Namespace) -> MemoryStats:
    row = (await db.read("governance/memory/stats", ns=ns))[0]
    return MemoryStats(**{**row, "oldest_job_at": maybe_datetime(row["oldest_job_at"])})


async def holds_memory(db: Database) -> bool:
    """Whether the store holds any episode, fact, entity, summary or API key, in any namespace
    (``graphmem restore`` replaces it only when told to)."""
    return bool((await db.read("governance/holds_memory"))[0]["holds"])
