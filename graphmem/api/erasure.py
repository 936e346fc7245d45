"""GraphQL types and resolvers for erasure."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, TypeAlias

import strawberry

from graphmem.api.episodes import Episode
from graphmem.api.facts import Fact
from graphmem.api.server.context import Context
from graphmem.api.server.scope import scoped
from graphmem.core.errors import Forbidden
from graphmem.core.namespaces import Namespace
from graphmem.core.timeutil import duration
from graphmem.governance import ephemeral, forgetting, mentions, subject_plan
from graphmem.governance import erasure as domain
from graphmem.security import namespace_keys


@strawberry.type(description="How many of one kind were erased.")
class ErasedCount:
    kind: str = strawberry.field(
        description="episodes, facts, entities, aliases, values, summaries, sessions, "
                    "conflicts, policies, merges; for episodes: facts_retracted, "
                    "summaries_stale; for a subject's mentions: mentions_redacted (turns), "
                    "archived_restored (archived turns brought back to rewrite their copy "
                    "of a mention).")
    count: int = strawberry.field(description="How many.")


@strawberry.type(description="Proof of an erasure: what was removed, and a re-query showing "
                             "nothing remains. A content-free copy stays for audit.")
class ErasureReceipt:
    id: strawberry.ID = strawberry.field(description="`erasure_…`; the audit tombstone's id.")
    scope: str = strawberry.field(description="What was erased, e.g. namespace.")
    requested_at: datetime = strawberry.field(description="When it was asked.")
    completed_at: datetime = strawberry.field(description="When it finished.")
    counts: list[ErasedCount] = strawberry.field(description="Removed, by kind.")
    remaining_nodes: int = strawberry.field(description="Nodes of the namespace still found.")
    remaining_searchable: int = strawberry.field(
        description="Fulltext index hits still found for the namespace.")
    verified: bool = strawberry.field(description="Both are zero.")


def receipt_of(done: domain.Receipt) -> ErasureReceipt:
    """A receipt as the API shows it (federated memory's erasure shows one too)."""
    return ErasureReceipt(
        id=strawberry.ID(done.id), scope=done.scope, requested_at=done.requested_at,
        completed_at=done.completed_at, remaining_nodes=done.remaining_nodes,
        remaining_searchable=done.remaining_searchable, verified=done.verified,
        counts=[ErasedCount(kind=k, count=v) for k, v in sorted(done.counts.items())])


@scoped
async def erase_episodes(
    ctx: Context, ns: Namespace,
    ids: Annotated[list[str], strawberry.argument(description="Episode ids or externalIds.")],
) -> ErasureReceipt:
    return receipt_of(await domain.erase_episodes(ctx.db, ns, ids, ctx.principal.name,
                                                ctx.fact_cache))


# The domain enum is the GraphQL enum: strawberry.enum registers the class in place.
MentionScope: TypeAlias = mentions.MentionScope
strawberry.enum(MentionScope, description=(
    "What erasing an entity does to the turns that mention it (its name or any alias as a "
    "whole word, any case: \"Biscuit's\" mentions Biscuit, \"Biscuits\" does not): KEEP "
    "leaves them as they are; REDACT replaces each mention with [redacted] and keeps the "
    "rest of the turn; ERASE erases those turns (with the episode cascade)."))

_Entity = Annotated[str, strawberry.argument(description="The entity's name or alias.")]
_Episodes = Annotated[bool, strawberry.argument(
    description="Also erase the episodes that evidence its facts (with their cascade).")]
_Mentions = Annotated[MentionScope, strawberry.argument(
    description="What happens to the turns that mention it.")]


@scoped
async def erase_subject(ctx: Context, ns: Namespace, entity: _Entity,
                        episodes: _Episodes = False,
                        mentions: _Mentions = MentionScope.KEEP) -> ErasureReceipt:
    return receipt_of(await domain.erase_subject(ctx.db, ns, entity, episodes,
                                               ctx.principal.name, ctx.fact_cache, mentions))


@strawberry.type(description="A fact an erasure would take.")
class PlannedFact:
    id: strawberry.ID = strawberry.field(description="The fact's id.")
    text: str = strawberry.field(description="What it says.")
    status: str = strawberry.field(description="believed, superseded, retracted…")


@strawberry.type(description="A turn an erasure would erase, or whose mentions it would "
                             "redact.")
class PlannedTurn:
    id: strawberry.ID = strawberry.field(description="The episode's id.")
    kind: str = strawberry.field(description="message, observation…")
    occurred_at: datetime = strawberry.field(description="When it was said.")
    session_id: str | None = strawberry.field(description="Its conversation.")
    excerpt: str = strawberry.field(
        description="A short piece of it, around its first mention when it has one.")
    action: str = strawberry.field(
        description="erase: the turn goes; redact: each mention goes, the rest stays.")


@strawberry.type(description="A summary an erasure would withdraw (made stale, its text "
                             "replaced until rebuilt from what remains).")
class PlannedSummary:
    id: strawberry.ID = strawberry.field(description="The summary's id.")
    session_id: str | None = strawberry.field(description="Its conversation, if one.")
    excerpt: str = strawberry.field(description="The start of its text.")


@strawberry.type(description="What `eraseSubject` with the same arguments would remove: "
                             "a dry run. Nothing is written.")
class SubjectErasurePlan:
    entity: str = strawberry.field(description="The entity's name.")
    names: list[str] = strawberry.field(
        description="Its name and aliases: the words that are mentions.")
    mentions: MentionScope = strawberry.field(description="The scope asked for.")
    facts: list[PlannedFact] = strawberry.field(
        description="Every fact version about it (as subject or object): deleted.")
    facts_retracted: list[PlannedFact] = strawberry.field(
        description="Other facts whose only evidence is an erased turn: retracted.")
    turns: list[PlannedTurn] = strawberry.field(
        description="Turns erased or redacted, in time order.")
    summaries: list[PlannedSummary] = strawberry.field(
        description="Summaries covering or citing any of it: withdrawn.")


@scoped
async def erasure_plan(ctx: Context, ns: Namespace, entity: _Entity,
                       episodes: _Episodes = False,
                       mentions: _Mentions = MentionScope.KEEP) -> SubjectErasurePlan:
    plan = await subject_plan.dry_run(ctx.db, ns, entity, episodes, mentions)
    facts = [PlannedFact(id=strawberry.ID(f.id), text=f.text, status=f.status)
             for f in plan.facts]
    return SubjectErasurePlan(
        entity=plan.entity.name, names=plan.names, mentions=plan.mentions, facts=facts,
        facts_retracted=[PlannedFact(id=strawberry.ID(f.id), text=f.text, status=f.status)
                         for f in plan.retracted],
        turns=[PlannedTurn(id=strawberry.ID(t.id), kind=t.kind, occurred_at=t.occurred_at,
                           session_id=t.session_id, excerpt=t.excerpt, action=t.action)
               for t in plan.turns],
        summaries=[PlannedSummary(id=strawberry.ID(s.id), session_id=s.session_id,
                                  excerpt=s.excerpt) for s in plan.summaries])


@scoped
async def erase_namespace(
    ctx: Context, ns: Namespace,
    confirm: Annotated[str, strawberry.argument(
        description="The namespace again, to confirm: this cannot be undone.")],
) -> ErasureReceipt:
    return receipt_of(await domain.erase_namespace(ctx.db, ns, confirm, ctx.principal.name,
                                                 ctx.fact_cache))


@strawberry.type(description="What forgetting an episode did.")
class ForgottenEpisode:
    episode: Episode | None = strawberry.field(
        description="The episode, redacted (its place, time and provenance stay); null when "
                    "erased.")
    receipt: ErasureReceipt | None = strawberry.field(description="When erased: the proof.")
    forgotten_facts: list[Fact] = strawberry.field(
        description="Facts whose only evidence it was: retracted and forgotten with it.")


@scoped
async def forget_episode(
    ctx: Context, ns: Namespace,
    id: Annotated[strawberry.ID, strawberry.argument(description="Episode id or externalId.")],
    reason: Annotated[str, strawberry.argument(
        description="Why (kept on the redacted episode and the forgotten facts).")],
    erase: Annotated[bool, strawberry.argument(
        description="Erase it (with a receipt) instead of redacting it.")] = False,
) -> ForgottenEpisode:
    done = await forgetting.forget_episode(ctx.db, ns, str(id), reason, ctx.principal.name,
                                           erase, ctx.fact_cache)
    return ForgottenEpisode(
        episode=Episode.of(done.episode) if done.episode else None,
        receipt=receipt_of(done.receipt) if done.receipt else None,
        forgotten_facts=[Fact.of(f) for f in done.facts])


@strawberry.type(description="An ephemeral session: memory for one conversation only.")
class EphemeralSession:
    session_id: str = strawberry.field(description="The session.")
    idle_minutes: float = strawberry.field(
        description="Erased (with a receipt) once no episode was recorded into it for this "
                    "long; `closeSession` erases it at once.")
    last_written_at: datetime | None = strawberry.field(
        description="When an episode was last recorded into it.")


@scoped
async def mark_session_ephemeral(
    ctx: Context, ns: Namespace,
    session_id: Annotated[str, strawberry.argument(description="The session.")],
    idle_minutes: Annotated[float, strawberry.argument(
        description="Erase it once idle this long (at most 30 days).")] = 60.0,
) -> EphemeralSession:
    idle = duration("idleMinutes", minutes=idle_minutes)
    state = await ephemeral.mark(ctx.db, ns, session_id, idle)
    assert state.ephemeral_ttl is not None
    return EphemeralSession(session_id=state.session_id,
                            idle_minutes=state.ephemeral_ttl.total_seconds() / 60,
                            last_written_at=state.updated_at)


@scoped
async def close_session(
    ctx: Context, ns: Namespace,
    session_id: Annotated[str, strawberry.argument(description="The ephemeral session.")],
) -> ErasureReceipt:
    return receipt_of(await ephemeral.close(ctx.db, ns, session_id, ctx.principal.name,
                                          ctx.fact_cache))


@scoped
async def destroy_namespace_key(
    ctx: Context, ns: Namespace,
    confirm: Annotated[str, strawberry.argument(description="The namespace again.")],
) -> bool:
    if not ctx.principal.admin:
        raise Forbidden("destroying a namespace's key is for admin keys")
    return await namespace_keys.destroy(ctx.db, ns, confirm)


@strawberry.type
class Query:
    erasure_plan: SubjectErasurePlan = strawberry.field(
        resolver=erasure_plan,
        description="What `eraseSubject` with the same arguments would remove — facts, "
                    "turns (erased or redacted) and summaries — without writing anything: "
                    "a dry run to show before asking to confirm.")


@strawberry.type
class Mutation:
    erase_episodes: ErasureReceipt = strawberry.field(
        resolver=erase_episodes,
        description="Erase episodes: covering summaries turn stale, facts left without "
                    "evidence are retracted, sessions are relinked; the receipt verifies.")
    erase_subject: ErasureReceipt = strawberry.field(
        resolver=erase_subject,
        description="Erase an entity: every fact about it, its aliases, orphaned entities and "
                    "values, optionally the episodes evidencing it, and the turns that "
                    "mention it as `mentions` says (kept, each mention redacted, or erased); "
                    "summaries covering any of it are withdrawn; the receipt verifies. "
                    "`erasurePlan` shows what it would take.")
    destroy_namespace_key: bool = strawberry.field(
        resolver=destroy_namespace_key,
        description="Erase a namespace cryptographically (admin; encryption with a key per "
                    "namespace): its key is destroyed, so its sealed episode content, sealed "
                    "exports and archived objects can never be read again, while other "
                    "namespaces work on. Facts, summaries and entity names are not encrypted: "
                    "`eraseNamespace` removes those. False: it had no key.")
    erase_namespace: ErasureReceipt = strawberry.field(
        resolver=erase_namespace,
        description="Erase everything a namespace holds, in bounded batches; the receipt "
                    "proves nothing remains (graph and fulltext indexes re-queried).")
    forget_episode: ForgottenEpisode = strawberry.field(
        resolver=forget_episode,
        description="A user's \"forget this\" for something they said: the facts taken only "
                    "from it are forgotten (see `forgetFact`; pinned ones stay), and the "
                    "episode is redacted, or erased with a receipt (`erase`).")
    mark_session_ephemeral: EphemeralSession = strawberry.field(
        resolver=mark_session_ephemeral,
        description="Memory for one conversation only: the session's episodes, the facts "
                    "taken only from them and its summaries are erased, with a receipt, when "
                    "it is closed (`closeSession`) or idle past `idleMinutes`.")
    close_session: ErasureReceipt = strawberry.field(
        resolver=close_session,
        description="The conversation is over: erase an ephemeral session now.")
