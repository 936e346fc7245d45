"""GraphQL types and resolvers for the pruning policy and sweeps."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

import strawberry

from graphmem.api.facts import Fact
from graphmem.api.server.context import Context
from graphmem.api.server.fields import mirror
from graphmem.api.server.scope import scoped
from graphmem.core.namespaces import Namespace
from graphmem.core.timeutil import duration
from graphmem.facts import store as facts
from graphmem.governance import pruning as domain

LISTED = 100  # facts a report lists; `count` has them all


@strawberry.type(description=(
    "Which facts a namespace lets go of: believed, not pinned, below `minConfidence`, and not "
    "returned by any answer (recall, search, facts) for `unusedForDays`. Pruning retracts "
    "them with the reason `pruned`; nothing is deleted."))
class PruningPolicy:
    min_confidence: float = strawberry.field(description="Facts below this confidence.")
    unused_for_days: float = strawberry.field(description="Unused for this many days.")
    updated_at: datetime | None = strawberry.field(description="When last set.")
    updated_by: str | None = strawberry.field(description="Who set it (API key name).")

    @classmethod
    def of(cls, p: domain.Policy) -> PruningPolicy:
        return mirror(cls, p, unused_for_days=p.unused_for.total_seconds() / 86400)


@strawberry.input(description="A pruning policy.")
class PruningPolicyInput:
    min_confidence: float = strawberry.field(description="Prune facts below this (0..1].")
    unused_for_days: float = strawberry.field(
        description="...that no answer returned for this many days.")


@strawberry.type(description="What a pruning sweep retracted (or would, in a dry run).")
class PruneReport:
    dry_run: bool = strawberry.field(description="Only listed, nothing retracted.")
    count: int = strawberry.field(description="How many facts.")
    facts: list[Fact] = strawberry.field(description=f"The first {LISTED}, oldest first.")


@scoped
async def pruning_policy(ctx: Context, ns: Namespace) -> PruningPolicy | None:
    found = await domain.policy_of(ctx.db, ns)
    return PruningPolicy.of(found) if found else None


@scoped
async def set_pruning_policy(
    ctx: Context, ns: Namespace,
    policy: Annotated[PruningPolicyInput, strawberry.argument(description="The policy.")],
) -> PruningPolicy:
    unused_for = duration("unusedForDays", days=policy.unused_for_days)
    return PruningPolicy.of(await domain.set_policy(
        ctx.db, ns, domain.Policy(policy.min_confidence, unused_for), ctx.principal.name))


@scoped
async def remove_pruning_policy(ctx: Context, ns: Namespace) -> bool:
    await domain.remove_policy(ctx.db, ns)
    return True


@scoped
async def prune_facts(
    ctx: Context, ns: Namespace,
    dry_run: Annotated[bool, strawberry.argument(
        description="Only list what would be pruned.")] = False,
) -> PruneReport:
    done = await domain.prune(ctx.db, ns, dry_run, actor=ctx.principal.name)
    listed = await facts.in_order(ctx.db, ns, done.fact_ids[:LISTED])
    return PruneReport(dry_run=dry_run, count=len(done.fact_ids),
                       facts=[Fact.of(f) for f in listed])


@strawberry.type
class Query:
    pruning_policy: PruningPolicy | None = strawberry.field(
        resolver=pruning_policy,
        description="Which facts this namespace lets go of (null: none is set).")


@strawberry.type
class Mutation:
    set_pruning_policy: PruningPolicy = strawberry.field(
        resolver=set_pruning_policy,
        description="Let go of facts nobody needs: believed, unpinned facts below a "
                    "confidence that no answer returned for so many days are retracted "
                    "(reason: pruned) by the worker's sweeps, or now with `pruneFacts`.")
    remove_pruning_policy: bool = strawberry.field(
        resolver=remove_pruning_policy,
        description="Remove the namespace's pruning policy.")
    prune_facts: PruneReport = strawberry.field(
        resolver=prune_facts,
        description="Apply the pruning policy now (or list what it would retract, `dryRun`).")
