"""GraphQL types and resolvers for retention policies and sweeps."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, TypeAlias

import strawberry

from graphmem.api.episodes import EpisodeKind, Sensitivity
from graphmem.api.server.context import Context
from graphmem.api.server.fields import mirror
from graphmem.api.server.scope import scoped
from graphmem.core.namespaces import Namespace
from graphmem.core.timeutil import duration
from graphmem.episodes.store import EpisodeKind as DomainKind
from graphmem.episodes.store import Sensitivity as DomainSensitivity
from graphmem.governance import retention as domain

# The domain enum is the GraphQL enum: strawberry.enum registers the class in place.
RetentionAction: TypeAlias = domain.Action
strawberry.enum(RetentionAction, description=(
    "delete: erase the episodes (with the erasure cascade and a receipt); redact: replace "
    "their content, keeping structure and provenance; archive: move their content to the "
    "archive store, keeping structure, provenance and (by default) their embedding, until "
    "`rehydrate` brings it back."))


@strawberry.type(description="How long a namespace keeps episodes of a kind and sensitivity.")
class RetentionPolicy:
    kind: EpisodeKind | None = strawberry.field(description="Episode kind; null: any.")
    sensitivity: Sensitivity | None = strawberry.field(description="Sensitivity; null: any.")
    max_age_days: float = strawberry.field(description="Episodes older than this are swept.")
    action: RetentionAction = strawberry.field(description="What sweeping does.")
    updated_at: datetime | None = strawberry.field(description="When last set.")
    updated_by: str | None = strawberry.field(description="Who set it (API key name).")
    keep_searchable: bool = strawberry.field(
        description="archive: archived turns keep their embedding (vector search finds them).")

    @classmethod
    def of(cls, p: domain.Policy) -> RetentionPolicy:
        return mirror(cls, p, max_age_days=p.max_age.total_seconds() / 86400)


@strawberry.input(description="A retention policy; one per (kind, sensitivity) pair.")
class RetentionPolicyInput:
    max_age_days: float = strawberry.field(description="Keep episodes this many days.")
    action: RetentionAction = strawberry.field(description="delete, redact or archive.")
    kind: EpisodeKind | None = strawberry.field(default=None, description="null: any kind.")
    sensitivity: Sensitivity | None = strawberry.field(
        default=None, description="null: any sensitivity (e.g. HEALTH for health data).")
    keep_searchable: bool = strawberry.field(default=True, description=(
        "archive: archived turns keep their embedding, so vector search still finds them "
        "(false: only facts, summaries and provenance lead to them)."))


@strawberry.type(description="What one policy did in a sweep (or would do, in a dry run).")
class RetentionApplied:
    policy: RetentionPolicy = strawberry.field(description="The policy.")
    matched: int = strawberry.field(description="Episodes it applied to.")
    episodes_deleted: int = strawberry.field(description="Episodes erased.")
    episodes_redacted: int = strawberry.field(description="Episodes redacted.")
    episodes_archived: int = strawberry.field(description="Episodes archived.")
    bytes_archived: int = strawberry.field(
        description="Bytes they take in the archive store (compressed).")
    facts_retracted: int = strawberry.field(description="Facts left without evidence, "
                                                        "retracted (by setting).")
    summaries_stale: int = strawberry.field(description="Summaries that turned stale.")
    receipts: list[str] = strawberry.field(description="Erasure receipts left for audit.")


def _policy(value: RetentionPolicyInput) -> domain.Policy:
    return domain.Policy(
        kind=DomainKind(value.kind) if value.kind else None,
        sensitivity=DomainSensitivity(value.sensitivity) if value.sensitivity else None,
        max_age=duration("maxAgeDays", days=value.max_age_days),
        action=domain.Action(value.action),
        keep_searchable=value.keep_searchable)


@scoped
async def retention_policies(ctx: Context, ns: Namespace) -> list[RetentionPolicy]:
    return [RetentionPolicy.of(p) for p in await domain.policies(ctx.db, ns)]


@scoped
async def set_retention_policy(
    ctx: Context, ns: Namespace,
    policy: Annotated[RetentionPolicyInput, strawberry.argument(description="The policy.")],
) -> RetentionPolicy:
    return RetentionPolicy.of(await domain.set_policy(ctx.db, ns, _policy(policy),
                                                      ctx.principal.name))


@scoped
async def remove_retention_policy(
    ctx: Context, ns: Namespace,
    kind: Annotated[EpisodeKind | None, strawberry.argument(description="As set.")] = None,
    sensitivity: Annotated[Sensitivity | None, strawberry.argument(description="As set.")]
    = None,
) -> bool:
    await domain.remove_policy(ctx.db, ns, DomainKind(kind) if kind else None,
                               DomainSensitivity(sensitivity) if sensitivity else None)
    return True


@scoped
async def sweep_retention(
    ctx: Context, ns: Namespace,
    dry_run: Annotated[bool, strawberry.argument(
        description="Only count what would be swept.")] = False,
) -> list[RetentionApplied]:
    done = await domain.sweep(ctx.db, ns, ctx.settings.retention_orphaned_facts == "retract",
                              dry_run)
    return [RetentionApplied(
        policy=RetentionPolicy.of(a.policy), matched=a.matched,
        episodes_deleted=a.episodes_deleted, episodes_redacted=a.episodes_redacted,
        episodes_archived=a.episodes_archived, bytes_archived=a.bytes_archived,
        facts_retracted=a.facts_retracted, summaries_stale=a.summaries_stale,
        receipts=a.receipts) for a in done]


@strawberry.type
class Query:
    retention_policies: list[RetentionPolicy] = strawberry.field(
        resolver=retention_policies,
        description="How long this namespace keeps episodes, by kind and sensitivity.")


@strawberry.type
class Mutation:
    set_retention_policy: RetentionPolicy = strawberry.field(
        resolver=set_retention_policy,
        description="Keep episodes of a kind and sensitivity for at most so many days, then "
                    "delete or redact them (the worker sweeps; `sweepRetention` now).")
    remove_retention_policy: bool = strawberry.field(
        resolver=remove_retention_policy,
        description="Remove the policy for a (kind, sensitivity) pair.")
    sweep_retention: list[RetentionApplied] = strawberry.field(
        resolver=sweep_retention,
        description="Apply this namespace's retention policies now (or count, `dryRun`).")
