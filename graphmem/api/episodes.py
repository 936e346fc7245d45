"""GraphQL types and resolvers for episodes."""

from __future__ import annotations

import json
from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any, TypeAlias

import strawberry
from strawberry.scalars import JSON

from graphmem.api.server.arguments import AfterArg, FirstArg
from graphmem.api.server.context import Context, Info
from graphmem.api.server.fields import mirror, resolver
from graphmem.api.server.inputs import batch_input
from graphmem.api.server.pagination import Connection, to_connection
from graphmem.api.server.scope import scoped
from graphmem.archive import stores as archive_stores
from graphmem.archive import tiering
from graphmem.core.errors import InvalidInput
from graphmem.core.namespaces import Namespace
from graphmem.core.pagination import batch_size, page_size
from graphmem.episodes import redaction, sessions
from graphmem.episodes import store as domain
from graphmem.facts import provenance
from graphmem.jobs.queue import Triggers
from graphmem.summaries import store as summaries

if TYPE_CHECKING:
    from graphmem.api.facts import Fact
    from graphmem.api.summaries import Summary

FactRef = Annotated["Fact", strawberry.lazy("graphmem.api.facts")]
SummaryRef = Annotated["Summary", strawberry.lazy("graphmem.api.summaries")]

# The domain enums are the GraphQL enums: strawberry.enum registers each class in place.
EpisodeKind: TypeAlias = domain.EpisodeKind
strawberry.enum(EpisodeKind, description="What an episode records.")
Sensitivity: TypeAlias = domain.Sensitivity
strawberry.enum(Sensitivity, description="How sensitive an episode is; retention can key on it.")


@strawberry.type(description="One immutable entry of the episodic log: a message, tool call, "
                             "observation, error or document, with when it happened.")
class Episode:
    id: strawberry.ID = strawberry.field(description="graphmem's id (`ep_…`).")
    namespace: str = strawberry.field(description="The namespace it belongs to.")
    external_id: str | None = strawberry.field(description="The client's idempotency key.")
    session_id: str | None = strawberry.field(description="The session it belongs to, if any.")
    seq: int = strawberry.field(description="Arrival order within its session (0 without one).")
    kind: EpisodeKind = strawberry.field(description="What it records.")
    actor: str | None = strawberry.field(description="Who produced it (user, agent, tool name).")
    text: strawberry.Private[str]
    occurred_at: datetime = strawberry.field(description="When it happened (client time, UTC).")
    recorded_at: datetime = strawberry.field(description="When graphmem stored it (server time).")
    importance: float | None = strawberry.field(description="Client-given importance, 0..1.")
    sensitivity: Sensitivity = strawberry.field(description="Sensitivity class.")
    meta: strawberry.Private[dict[str, Any]]
    content_hash: str = strawberry.field(description="SHA-256 of the canonical content "
                                                     "(`redacted` once redacted).")
    redacted_at: datetime | None = strawberry.field(
        description="When its content was redacted (it reads `[redacted]` since).")
    archived_at: datetime | None = strawberry.field(description=(
        "When its content moved to the archive store (it reads `[archived]` until "
        "`rehydrate` brings it back; its time, place and provenance links stay)."))

    @classmethod
    def of(cls, e: domain.Episode) -> Episode:
        return mirror(cls, e, text=e.content, meta=e.metadata)

    @resolver("The full, lossless content.")
    def content(self, info: Info) -> str:
        info.context.charge(len(self.text))  # counted into the answer's size as it is built
        return self.text

    @resolver("Client metadata (a JSON object).")
    def metadata(self, info: Info) -> JSON:
        if self.meta:
            info.context.charge(len(json.dumps(self.meta)))
        return JSON(self.meta)

    @resolver("Facts taken from this episode (any status).")
    async def derived_facts(self, info: Info) -> list[FactRef]:
        from graphmem.api.facts import Fact

        ctx, ns = info.context, Namespace(self.namespace)
        loader = ctx.loader("derived_facts", ns,
                            lambda ids: provenance.facts_of_episodes(ctx.db, ns, ids))
        return [Fact.of(f) for f in await loader.load(str(self.id))]

    @resolver("Summaries that cover this episode.")
    async def summaries(self, info: Info) -> list[SummaryRef]:
        from graphmem.api.summaries import Summary

        ctx, ns = info.context, Namespace(self.namespace)
        loader = ctx.loader("episode_summaries", ns,
                            lambda ids: summaries.of_episodes(ctx.db, ns, ids))
        return [Summary.of(s) for s in await loader.load(str(self.id))]


@batch_input
@strawberry.input(description="An episode to record. Give `externalId` to make retries safe.")
class EpisodeInput:
    content: str = strawberry.field(description="The full content (never truncated).")
    kind: EpisodeKind = strawberry.field(description="What it records.")
    occurred_at: datetime = strawberry.field(description="When it happened; must carry a "
                                                         "timezone.")
    external_id: str | None = strawberry.field(
        default=None, description="Idempotency key: recording it again is a no-op.")
    session_id: str | None = strawberry.field(default=None, description="Session to append to.")
    actor: str | None = strawberry.field(default=None, description="Who produced it.")
    metadata: JSON | None = strawberry.field(default=None, description="A JSON object.")
    importance: float | None = strawberry.field(default=None, description="0..1.")
    sensitivity: Sensitivity = strawberry.field(default=domain.Sensitivity.PERSONAL,
                                                description="Sensitivity class.")

    def to_domain(self) -> domain.NewEpisode:
        if self.metadata is not None and not isinstance(self.metadata, dict):
            raise InvalidInput("metadata must be a JSON object", field="metadata")
        return domain.NewEpisode(
            content=self.content, kind=domain.EpisodeKind(self.kind),
            occurred_at=self.occurred_at, external_id=self.external_id,
            session_id=self.session_id, actor=self.actor, metadata=dict(self.metadata or {}),
            importance=self.importance, sensitivity=domain.Sensitivity(self.sensitivity))


@strawberry.input(description="Filters for `episodes`; all are optional and combine with AND.")
class EpisodeWhere:
    session_id: str | None = strawberry.field(default=None, description="Only this session.")
    occurred_from: datetime | None = strawberry.field(default=None,
                                                      description="Occurred at or after.")
    occurred_to: datetime | None = strawberry.field(default=None, description="Occurred before.")
    kinds: list[EpisodeKind] | None = strawberry.field(default=None, description="Any of these.")
    actor: str | None = strawberry.field(default=None, description="Exactly this actor.")
    text_contains: str | None = strawberry.field(
        default=None, description="Case-insensitive substring of the content.")


@strawberry.type(description="What `recordEpisodes` did.")
class RecordEpisodesResult:
    episodes: list[Episode] = strawberry.field(
        description="One per input, in input order; duplicates are the episodes already stored.")
    created: int = strawberry.field(description="How many were new.")
    duplicates: int = strawberry.field(description="How many were already recorded (no-op).")


@scoped
async def record_episodes(
    ctx: Context, ns: Namespace,
    episodes: Annotated[list[EpisodeInput], strawberry.argument(
        description="The batch (up to the server's cap, 1000 by default); one transaction.")],
) -> RecordEpisodesResult:
    batch_size(len(episodes), ctx.settings.max_batch, "episodes")
    result = await domain.record(ctx.db, ns, [e.to_domain() for e in episodes],
                                 Triggers.from_settings(ctx.settings),
                                 ctx.settings.max_episode_chars)
    return RecordEpisodesResult(episodes=[Episode.of(e) for e in result.episodes],
                                created=result.created, duplicates=result.duplicates)


@scoped
async def redact_episode(
    ctx: Context, ns: Namespace,
    id: Annotated[strawberry.ID, strawberry.argument(description="Episode id or externalId.")],
    reason: Annotated[str, strawberry.argument(description="Why (kept on the episode).")],
) -> Episode:
    return Episode.of(await redaction.redact_episode(ctx.db, ns, str(id), reason,
                                                     ctx.principal.name))


@scoped
async def list_episodes(
    ctx: Context, ns: Namespace,
    where: Annotated[EpisodeWhere | None, strawberry.argument(description="Filters.")] = None,
    first: FirstArg = 50, after: AfterArg = None,
) -> Connection[Episode]:
    w = where or EpisodeWhere()
    page = await domain.page(
        ctx.db, ns,
        domain.EpisodeFilter(
            session_id=w.session_id, occurred_from=w.occurred_from, occurred_to=w.occurred_to,
            kinds=[domain.EpisodeKind(k) for k in w.kinds] if w.kinds else None,
            actor=w.actor, text_contains=w.text_contains),
        first=page_size(first, ctx.settings.max_page), after=after)
    return to_connection(page, Episode.of)


@scoped
async def episode(
    ctx: Context, ns: Namespace,
    id: Annotated[strawberry.ID, strawberry.argument(description="The episode's id.")],
) -> Episode | None:
    found = await domain.by_ids(ctx.db, ns, [str(id)])
    return Episode.of(found[str(id)]) if str(id) in found else None


@strawberry.type(description="A conversation: its episodes' count and time span.")
class Session:
    session_id: str = strawberry.field(description="The client's session id.")
    episodes: int = strawberry.field(description="Episodes in it.")
    first_at: datetime = strawberry.field(description="When its first episode occurred.")
    last_at: datetime = strawberry.field(description="When its latest episode occurred.")
    ephemeral_idle_minutes: float | None = strawberry.field(description=(
        "Set when ephemeral: erased (with a receipt) once idle this long, or when closed."))


@scoped
async def list_sessions(ctx: Context, ns: Namespace, first: FirstArg = 50,
                        after: AfterArg = None) -> Connection[Session]:
    found = await sessions.page(ctx.db, ns, page_size(first, ctx.settings.max_page), after)
    return to_connection(found, lambda s: Session(
        session_id=s.session_id, episodes=s.episodes, first_at=s.first_at, last_at=s.last_at,
        ephemeral_idle_minutes=s.ephemeral_ttl_s / 60 if s.ephemeral_ttl_s else None))


@scoped
async def rehydrate(
    ctx: Context, ns: Namespace,
    ids: Annotated[list[strawberry.ID], strawberry.argument(
        description="Episode ids or externalIds (at most 1000).")],
) -> list[Episode]:
    batch_size(len(ids), 1_000, "ids")
    return [Episode.of(e) for e in await tiering.rehydrate(
        ctx.db, archive_stores.required(ctx.db), ns, [str(i) for i in ids])]


@strawberry.type
class Query:
    episodes: Connection[Episode] = strawberry.field(
        resolver=list_episodes,
        description="The episodic log in time order, filtered, with keyset pagination.")
    episode: Episode | None = strawberry.field(
        resolver=episode, description="One episode by id.")
    sessions: Connection[Session] = strawberry.field(
        resolver=list_sessions,
        description="A namespace's conversations, the most recently active first.")


@strawberry.type
class Mutation:
    record_episodes: RecordEpisodesResult = strawberry.field(
        resolver=record_episodes,
        description="Append a batch of episodes; idempotent by `externalId`.")
    rehydrate: list[Episode] = strawberry.field(
        resolver=rehydrate,
        description="Bring archived episodes' content back from the archive store (checked "
                    "against its address and the episode's content hash), in the order "
                    "asked; episodes not archived come back as they are.")
    redact_episode: Episode = strawberry.field(
        resolver=redact_episode,
        description="Replace an episode's content with `[redacted]`, keeping its place, time "
                    "and provenance links; covering summaries turn stale (and are rebuilt).")
