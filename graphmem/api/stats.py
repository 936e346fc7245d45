"""GraphQL type and resolver for memoryStats."""

from __future__ import annotations

from datetime import datetime

import strawberry

from graphmem.api.server.context import Context
from graphmem.api.server.scope import scoped
from graphmem.core.namespaces import Namespace
from graphmem.governance import stats as domain


@strawberry.type(description="What a namespace holds, and what needs attention.")
class MemoryStats:
    sessions: int = strawberry.field(description="Conversations.")
    episodes: int = strawberry.field(description="Episodes in the log.")
    entities: int = strawberry.field(description="Entities facts are about.")
    believed_facts: int = strawberry.field(description="Fact versions believed now (any "
                                                       "validity).")
    fact_versions: int = strawberry.field(description="Every fact version, history included.")
    summaries: int = strawberry.field(description="Summaries.")
    stale_summaries: int = strawberry.field(description="Summaries whose sources changed.")
    open_conflicts: int = strawberry.field(description="Disputes awaiting a decision.")
    pending_embeddings: int = strawberry.field(
        description="Nodes not yet embedded (searchable by BM25 meanwhile).")
    queued_jobs: int = strawberry.field(description="Pipeline jobs waiting to run.")
    failed_jobs: int = strawberry.field(description="Pipeline jobs that failed (see `jobs`).")
    oldest_job_at: datetime | None = strawberry.field(
        description="When the oldest unfinished job was queued: a stuck queue shows here.")


@scoped
async def memory_stats(ctx: Context, ns: Namespace) -> MemoryStats:
    stats = await domain.of_namespace(ctx.db, ns)
    return MemoryStats(**stats.__dict__)


@strawberry.type
class Query:
    memory_stats: MemoryStats = strawberry.field(
        resolver=memory_stats,
        description="Counts by kind, stale summaries, open conflicts, pending embeddings, "
                    "pipeline jobs waiting or failed.")
