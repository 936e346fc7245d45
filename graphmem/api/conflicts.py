"""GraphQL types and resolvers for conflicts and predicate policies."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, TypeAlias

import strawberry

from graphmem.api.facts import Fact, ReasonArg
from graphmem.api.server.arguments import AfterArg, FirstArg
from graphmem.api.server.context import Context
from graphmem.api.server.fields import mirror
from graphmem.api.server.pagination import Connection, to_connection
from graphmem.api.server.scope import scoped
from graphmem.core.namespaces import Namespace
from graphmem.core.pagination import page_size
from graphmem.facts import conflicts as domain
from graphmem.facts import policies

# The domain enums are the GraphQL enums: strawberry.enum registers each class in place.
ConflictStatus: TypeAlias = domain.ConflictStatus
strawberry.enum(ConflictStatus, description=(
    "open: awaiting a decision (its candidates are disputed); resolved: settled by "
    "resolveConflict or because all but one candidate ended."))
Cardinality: TypeAlias = policies.Cardinality
strawberry.enum(Cardinality, description=(
    "one: one value at a time (a new value overlapping a believed one is resolved by the "
    "strategy); many: values accumulate."))
Strategy: TypeAlias = policies.Strategy
strawberry.enum(Strategy, description=(
    "recency: the value that became true later in world time wins (at the same start, the "
    "newer statement); confidence: the more confident wins, a tie is a dispute; "
    "source_priority: user_correction > user_statement > agent_assertion > extraction > "
    "inference, a tie is a dispute; manual: every overlap is a dispute."))


@strawberry.type(description="Facts that contradict each other and that the predicate's "
                             "policy could not settle.")
class Conflict:
    id: strawberry.ID = strawberry.field(description="graphmem's id (`conflict_…`).")
    status: ConflictStatus = strawberry.field(description="Open or resolved.")
    subject: str = strawberry.field(description="The subject the candidates share.")
    predicate: str = strawberry.field(description="The predicate they share.")
    created_at: datetime = strawberry.field(description="When it was opened.")
    resolved_at: datetime | None = strawberry.field(description="When it was settled.")
    resolved_by: str | None = strawberry.field(description="Who settled it (API key name).")
    reason: str | None = strawberry.field(description="Why it was settled that way.")
    kept: strawberry.ID | None = strawberry.field(description="The fact kept, if decided.")
    candidates: list[Fact] = strawberry.field(description="The competing facts.")

    @classmethod
    def of(cls, c: domain.Conflict) -> Conflict:
        return mirror(cls, c, kept=strawberry.ID(c.kept) if c.kept else None,
                      candidates=[Fact.of(f) for f in c.candidates])


@strawberry.type(description="How a predicate behaves when values compete.")
class PredicatePolicy:
    predicate: str = strawberry.field(description="The normalised predicate.")
    cardinality: Cardinality = strawberry.field(description="One value at a time, or many.")
    strategy: Strategy = strawberry.field(description="Who wins an overlap (for `one`).")
    is_default: bool = strawberry.field(description="True when graphmem's default applies.")
    updated_at: datetime | None = strawberry.field(description="When it was overridden.")
    updated_by: str | None = strawberry.field(description="Who overrode it.")

    @classmethod
    def of(cls, p: policies.Policy) -> PredicatePolicy:
        return mirror(cls, p)


@scoped
async def list_conflicts(
    ctx: Context, ns: Namespace,
    status: Annotated[ConflictStatus | None, strawberry.argument(
        description="Only this status (default: all).")] = None,
    first: FirstArg = 50, after: AfterArg = None,
) -> Connection[Conflict]:
    found = await domain.page(ctx.db, ns, domain.ConflictStatus(status) if status else None,
                              page_size(first, ctx.settings.max_page), after)
    return to_connection(found, Conflict.of)


@scoped
async def resolve_conflict(
    ctx: Context, ns: Namespace,
    conflict_id: Annotated[strawberry.ID, strawberry.argument(description="The conflict.")],
    keep: Annotated[strawberry.ID, strawberry.argument(description="The candidate to keep.")],
    reason: ReasonArg,
) -> Conflict:
    return Conflict.of(await domain.resolve(ctx.db, ns, str(conflict_id), str(keep), reason,
                                            ctx.principal.name))


@scoped
async def predicate_policies(ctx: Context, ns: Namespace) -> list[PredicatePolicy]:
    return [PredicatePolicy.of(p) for p in await policies.list_policies(ctx.db, ns)]


@scoped
async def set_predicate_policy(
    ctx: Context, ns: Namespace,
    predicate: Annotated[str, strawberry.argument(description="e.g. works_at.")],
    cardinality: Annotated[Cardinality, strawberry.argument(
        description="one or many values at a time.")],
    strategy: Annotated[Strategy, strawberry.argument(
        description="Who wins an overlap (for one-value predicates).")
    ] = policies.Strategy.RECENCY,
) -> PredicatePolicy:
    return PredicatePolicy.of(await policies.set_policy(
        ctx.db, ns, predicate, policies.Cardinality(cardinality), policies.Strategy(strategy),
        ctx.principal.name))


@strawberry.type
class Query:
    conflicts: Connection[Conflict] = strawberry.field(
        resolver=list_conflicts,
        description="Disputes between facts, newest first, with their candidates.")
    predicate_policies: list[PredicatePolicy] = strawberry.field(
        resolver=predicate_policies,
        description="How each known predicate resolves competing values: defaults merged "
                    "with this namespace's overrides. Unlisted predicates are `many`.")


@strawberry.type
class Mutation:
    resolve_conflict: Conflict = strawberry.field(
        resolver=resolve_conflict,
        description="Settle a dispute by keeping one candidate; the others are superseded.")
    set_predicate_policy: PredicatePolicy = strawberry.field(
        resolver=set_predicate_policy,
        description="Override how a predicate resolves competing values in this namespace "
                    "(applies to later writes).")
