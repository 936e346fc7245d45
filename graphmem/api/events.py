"""GraphQL subscriptions: memory's changes as they are committed (``memoryEvents``), over the
``graphql-transport-ws`` protocol on ``/graphql``. An event carries ids and kinds; what it
concerns is read through its fields, by a key that may read the namespace."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from datetime import datetime
from typing import Annotated, TypeAlias

import strawberry

from graphmem.api.facts import Fact
from graphmem.api.jobs import Job
from graphmem.api.server.arguments import FirstArg
from graphmem.api.server.context import Context, Info, Subscriptions
from graphmem.api.server.fields import mirror, resolver
from graphmem.api.server.scope import scoped
from graphmem.core.errors import Forbidden, QueryTooCostly
from graphmem.core.namespaces import Namespace
from graphmem.core.pagination import page_size
from graphmem.db.database import Database
from graphmem.events import webhooks
from graphmem.events.outbox import Event, EventKind
from graphmem.facts import store as facts
from graphmem.facts.model import Fact as StoredFact
from graphmem.jobs import queue as jobs

MemoryEventKind: TypeAlias = EventKind
strawberry.enum(MemoryEventKind, name="MemoryEventKind", description=(
    "What changed: a fact created, superseded or retracted; a conflict opened or resolved; "
    "a summary written or turned stale; an erasure done (of episodes or a subject: the "
    "erasure of a whole namespace erases its events too); a job failed for good."))
KindsArg = Annotated[list[MemoryEventKind] | None, strawberry.argument(
    description="Only these kinds (default: all).")]


class _Together:
    """Events handed out together: the first of them to read its fact (or job) reads every
    one's in one query. A 1,000-fact `assertFacts` told to ten subscriptions asking for
    `fact { … }` had made 10,000 queries of one fact each."""

    def __init__(self, db: Database, ns: Namespace, events: list[Event]) -> None:
        self.db, self.ns, self.events = db, ns, events
        self._facts: asyncio.Future[dict[str, StoredFact]] | None = None
        self._jobs: asyncio.Future[dict[str, jobs.Job]] | None = None

    async def fact(self, fact_id: str) -> StoredFact | None:
        if self._facts is None:
            ids = [e.subject_id for e in self.events if e.kind.value.startswith("fact.")]
            self._facts = asyncio.ensure_future(facts.by_ids(self.db, self.ns, ids))
        return (await self._facts).get(fact_id)

    async def job(self, job_id: str) -> jobs.Job | None:
        if self._jobs is None:
            ids = [e.subject_id for e in self.events if e.kind is EventKind.JOB_FAILED]
            self._jobs = asyncio.ensure_future(jobs.by_ids(self.db, self.ns, ids))
        return (await self._jobs).get(job_id)


@strawberry.type(description="A change to memory, told once it was committed (at least once: "
                             "de-duplicate by `id`).")
class MemoryEvent:
    id: strawberry.ID = strawberry.field(description="The event's id (`evt_…`).")
    kind: MemoryEventKind = strawberry.field(description="What changed.")
    namespace: str = strawberry.field(description="Where.")
    at: datetime = strawberry.field(description="When the change was written.")
    subject_id: strawberry.ID = strawberry.field(description=(
        "What changed: the fact, conflict, summary, erasure receipt or job id."))
    together: strawberry.Private[_Together]

    @classmethod
    def of(cls, e: Event, together: _Together) -> MemoryEvent:
        return mirror(cls, e, together=together)

    @resolver("The fact, as it is now, for fact events (null for others, or once erased).")
    async def fact(self, info: Info) -> Fact | None:
        if not self.kind.value.startswith("fact."):
            return None
        found = await self.together.fact(str(self.subject_id))
        return Fact.of(found) if found is not None else None

    @resolver("The job, for job events (null for others).")
    async def job(self, info: Info) -> Job | None:
        if self.kind is not EventKind.JOB_FAILED:
            return None
        found = await self.together.job(str(self.subject_id))
        return Job.of(found) if found is not None else None


@strawberry.type(description="Events that arrived together, in the order they happened: a "
                             "large transaction's changes in one message.")
class MemoryEventBatch:
    events: list[MemoryEvent] = strawberry.field(description="The events, oldest first.")


@scoped
async def memory_events(ctx: Context, ns: Namespace,
                        kinds: KindsArg = None) -> AsyncGenerator[MemoryEvent, None]:
    async for batch in _batches(ctx, ns, kinds):
        for event in batch.events:
            yield event


@scoped
async def memory_event_batches(ctx: Context, ns: Namespace, kinds: KindsArg = None,
                               ) -> AsyncGenerator[MemoryEventBatch, None]:
    async for batch in _batches(ctx, ns, kinds):
        yield batch


async def _batches(ctx: Context, ns: Namespace,
                   kinds: list[EventKind] | None) -> AsyncGenerator[MemoryEventBatch, None]:
    """A namespace's events as the process's feed hands them out, under the caps: so many
    subscriptions in the process and for one key."""
    assert ctx.events is not None  # the runtime's, always given with the context
    count, key = ctx.subscriptions or Subscriptions(), ctx.principal.key_id
    if count.running >= ctx.settings.max_subscriptions:
        raise QueryTooCostly(f"this process runs {ctx.settings.max_subscriptions} "
                             "subscriptions already; try another one, or later")
    if count.by_key[key] >= ctx.settings.max_subscriptions_per_key:
        raise QueryTooCostly(f"this API key runs {ctx.settings.max_subscriptions_per_key} "
                             "subscriptions already; end one first")
    count.running += 1
    count.by_key[key] += 1
    try:
        async for events in ctx.events.follow(ns, kinds or list(EventKind)):
            together = _Together(ctx.db, ns, events)
            yield MemoryEventBatch(events=[MemoryEvent.of(e, together) for e in events])
    finally:
        count.running -= 1
        count.by_key[key] -= 1
        if count.by_key[key] <= 0:
            del count.by_key[key]


@strawberry.type(description="A URL a namespace's events are POSTed to, signed with its secret "
                             "(`Graphmem-Signature: t=<unix>,v1=<HMAC-SHA256 of \"<t>.<body>\">`).")
class Webhook:
    id: strawberry.ID = strawberry.field(description="The webhook's id (`wh_…`).")
    namespace: str = strawberry.field(description="Whose events.")
    url: str = strawberry.field(description="Where they are POSTed.")
    kinds: list[MemoryEventKind] = strawberry.field(description="Which kinds.")
    created_at: datetime = strawberry.field(description="When it was added.")

    @classmethod
    def of(cls, w: webhooks.Webhook) -> Webhook:
        return mirror(cls, w)

    @resolver("Its delivery log, newest first.")
    async def deliveries(self, info: Info, first: FirstArg = 50) -> list[WebhookDelivery]:
        ctx = info.context
        found = await webhooks.deliveries(ctx.db, Namespace(self.namespace), str(self.id),
                                          page_size(first, ctx.settings.max_page))
        return [WebhookDelivery.of(d) for d in found]


@strawberry.type(description="One event's delivery to a webhook: tried until a 2xx answer, "
                             "with a doubling backoff, or until its attempts are spent.")
class WebhookDelivery:
    id: strawberry.ID = strawberry.field(description="The delivery's id (`dlv_…`), sent as "
                                                     "`Graphmem-Delivery`.")
    event_id: strawberry.ID = strawberry.field(description="The event it carries.")
    kind: MemoryEventKind = strawberry.field(description="The event's kind.")
    state: str = strawberry.field(description="pending, delivered or failed.")
    attempts: int = strawberry.field(description="Attempts made.")
    created_at: datetime = strawberry.field(description="When the event was committed.")
    next_at: datetime | None = strawberry.field(description="When it is tried next.")
    delivered_at: datetime | None = strawberry.field(description="When a 2xx came back.")
    last_status: int | None = strawberry.field(description="The last answer's HTTP status.")
    last_error: str | None = strawberry.field(description="The last failure without an answer "
                                                          "(its type: no URL, no content).")

    @classmethod
    def of(cls, d: webhooks.Delivery) -> WebhookDelivery:
        return mirror(cls, d)


@strawberry.type(description="A webhook just added, with its signing secret: shown this once.")
class AddedWebhook:
    webhook: Webhook = strawberry.field(description="The webhook.")
    secret: str = strawberry.field(description="The secret its deliveries are signed with.")


def _admin(ctx: Context) -> None:
    """Webhooks send data out of the service: they are for admin keys."""
    if not ctx.principal.admin:
        raise Forbidden("webhooks are for admin keys")


@scoped
async def add_webhook(ctx: Context, ns: Namespace,
                      url: Annotated[str, strawberry.argument(description="An http(s) URL.")],
                      kinds: KindsArg = None) -> AddedWebhook:
    _admin(ctx)
    made, secret = await webhooks.add(ctx.db, ns, url, kinds or [], ctx.settings)
    return AddedWebhook(webhook=Webhook.of(made), secret=secret)


@scoped
async def remove_webhook(ctx: Context, ns: Namespace,
                         id: Annotated[strawberry.ID, strawberry.argument(
                             description="The webhook's id.")]) -> bool:
    _admin(ctx)
    return await webhooks.remove(ctx.db, ns, str(id))


@scoped
async def list_webhooks(ctx: Context, ns: Namespace) -> list[Webhook]:
    _admin(ctx)
    return [Webhook.of(w) for w in await webhooks.listed(ctx.db, ns)]


@strawberry.type
class Query:
    webhooks: list[Webhook] = strawberry.field(
        resolver=list_webhooks,
        description="Where this namespace's events are POSTed, with each delivery log (admin).")


@strawberry.type
class Mutation:
    add_webhook: AddedWebhook = strawberry.field(
        resolver=add_webhook,
        description="POST this namespace's events (of some kinds) to a URL, signed (admin).")
    remove_webhook: bool = strawberry.field(
        resolver=remove_webhook,
        description="Stop a webhook; its delivery log goes with it (admin).")


@strawberry.type
class Subscription:
    memory_events = strawberry.subscription(
        resolver=memory_events,
        description="A namespace's changes from now on, each once, in the order they happened.")
    memory_event_batches = strawberry.subscription(
        resolver=memory_event_batches,
        description="The same changes, in batches of what arrived together (one message for "
                    "a large transaction's changes): for listeners that follow busy "
                    "namespaces.")
