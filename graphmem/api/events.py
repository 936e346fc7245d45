"""GraphQL subscriptions: memory's changes as they are committed (``memoryEvents``), over the
``graphql-transport-ws`` protocol on ``/graphql``. An event carries ids and kinds; what it
concerns is read through its fields, by a key that may read the namespace."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from datetime import datetime
from typing import Annotated, TypeAlias

import strawberry

from graphmem.api.arguments import NamespaceArg
from graphmem.api.context import Info
from graphmem.api.facts import Fact
from graphmem.api.fields import resolver
from graphmem.api.jobs import Job
from graphmem.core.namespaces import Namespace
from graphmem.events import feed
from graphmem.events.outbox import Event, EventKind
from graphmem.facts import store as facts
from graphmem.jobs import queue as jobs

MemoryEventKind: TypeAlias = EventKind
strawberry.enum(MemoryEventKind, name="MemoryEventKind", description=(
    "What changed: a fact created, superseded or retracted; a conflict opened or resolved; "
    "a summary written or turned stale; an erasure done (of episodes or a subject: the "
    "erasure of a whole namespace erases its events too); a job failed for good."))
KindsArg = Annotated[list[MemoryEventKind] | None, strawberry.argument(
    description="Only these kinds (default: all).")]


@strawberry.type(description="A change to memory, told once it was committed (at least once: "
                             "de-duplicate by `id`).")
class MemoryEvent:
    id: strawberry.ID = strawberry.field(description="The event's id (`evt_…`).")
    kind: MemoryEventKind = strawberry.field(description="What changed.")
    namespace: str = strawberry.field(description="Where.")
    at: datetime = strawberry.field(description="When the change was written.")
    subject_id: strawberry.ID = strawberry.field(description=(
        "What changed: the fact, conflict, summary, erasure receipt or job id."))

    @classmethod
    def of(cls, e: Event) -> MemoryEvent:
        return cls(id=strawberry.ID(e.id), kind=e.kind, namespace=e.namespace, at=e.at,
                   subject_id=strawberry.ID(e.subject_id))

    @resolver("The fact, as it is now, for fact events (null for others, or once erased).")
    async def fact(self, info: Info) -> Fact | None:
        if not self.kind.value.startswith("fact."):
            return None
        found = await facts.by_ids(info.context.db, Namespace(self.namespace),
                                   [str(self.subject_id)])
        return Fact.of(found[self.subject_id]) if self.subject_id in found else None

    @resolver("The job, for job events (null for others).")
    async def job(self, info: Info) -> Job | None:
        if self.kind is not EventKind.JOB_FAILED:
            return None
        found = await jobs.by_ids(info.context.db, Namespace(self.namespace),
                                  [str(self.subject_id)])
        return Job.of(found[self.subject_id]) if self.subject_id in found else None


async def memory_events(info: Info, namespace: NamespaceArg,
                        kinds: KindsArg = None) -> AsyncGenerator[MemoryEvent, None]:
    ctx = info.context
    ns = ctx.namespace(namespace)
    async for event in feed.follow(ctx.db, ns, kinds or list(EventKind),
                                   ctx.settings.event_poll_s):
        yield MemoryEvent.of(event)
