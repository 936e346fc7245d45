"""GraphQL types and resolvers for summaries."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

import strawberry

from graphmem.api.server.context import Context
from graphmem.api.server.fields import mirror
from graphmem.api.server.scope import scoped
from graphmem.core.namespaces import Namespace
from graphmem.summaries import store as domain


@strawberry.type(description="Compressed context, linked by SUMMARIZES to the episodes or "
                             "summaries it covers and by CITES to the facts it relies on.")
class Summary:
    id: strawberry.ID = strawberry.field(description="graphmem's id (`sum_…`).")
    namespace: str = strawberry.field(description="The namespace it belongs to.")
    session_id: str | None = strawberry.field(description="The session it summarises, if any.")
    scope: str = strawberry.field(description="What it summarises, e.g. session, user, day.")
    level: int = strawberry.field(description="1 over episodes, 2 over level-1 summaries, …")
    text: str = strawberry.field(description="The summary.")
    covers_from: datetime | None = strawberry.field(description="Earliest covered moment.")
    covers_to: datetime | None = strawberry.field(description="Latest covered moment.")
    created_at: datetime = strawberry.field(description="When it was written.")
    stale: bool = strawberry.field(description="Something it covers or cites has changed "
                                               "since it was written.")
    producer: str | None = strawberry.field(description="Who wrote it (agent, model).")

    @classmethod
    def of(cls, s: domain.Summary) -> Summary:
        return mirror(cls, s)


@strawberry.input(description="A summary to store, with exactly what it covers and cites.")
class SummaryInput:
    text: str = strawberry.field(description="The summary text.")
    covers: list[str] = strawberry.field(description="The episodes (ids or externalIds) or "
                                                     "summaries (ids) it summarises (at least "
                                                     "one).")
    cites: list[str] = strawberry.field(default_factory=list,
                                        description="Ids of the facts it relies on.")
    session_id: str | None = strawberry.field(default=None, description="Its session, if any.")
    scope: str = strawberry.field(default="session", description="session, user, day, …")
    level: int = strawberry.field(default=1, description="1 over episodes, 2 over summaries.")
    producer: str | None = strawberry.field(default=None, description="Who wrote it.")

    def to_domain(self) -> domain.NewSummary:
        return domain.NewSummary(text=self.text, scope=self.scope, level=self.level,
                                 session_id=self.session_id, covers=list(self.covers),
                                 cites=list(self.cites), producer=self.producer)


@scoped
async def write_summary(
    ctx: Context, ns: Namespace,
    summary: Annotated[SummaryInput, strawberry.argument(description="The summary.")],
) -> Summary:
    return Summary.of(await domain.write(ctx.db, ns, summary.to_domain()))


@scoped
async def session_summary(
    ctx: Context, ns: Namespace,
    session_id: Annotated[str, strawberry.argument(description="The session.")],
) -> Summary | None:
    found = await domain.latest(ctx.db, ns, session_id)
    return Summary.of(found) if found else None


@strawberry.type
class Query:
    summary: Summary | None = strawberry.field(
        resolver=session_summary, description="The freshest summary of a session.")


@strawberry.type
class Mutation:
    write_summary: Summary = strawberry.field(
        resolver=write_summary,
        description="Store a summary linked to what it covers and cites.")
