"""GraphQL types and resolvers for entities."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

import strawberry

from graphmem.api.facts import Fact
from graphmem.api.server.context import Context, Info
from graphmem.api.server.fields import mirror, resolver
from graphmem.api.server.scope import scoped
from graphmem.core.namespaces import Namespace
from graphmem.facts import entities as domain
from graphmem.facts import entity_merge, provenance


@strawberry.type(description="A thing facts are about, resolved by normalised name or alias.")
class Entity:
    id: strawberry.ID = strawberry.field(description="graphmem's id (`ent_…`).")
    namespace: str = strawberry.field(description="The namespace it belongs to.")
    name: str = strawberry.field(description="Its display name (as first seen).")
    key: str = strawberry.field(description="The normalised name used for exact resolution.")
    type: str | None = strawberry.field(description="Optional type, e.g. person.")
    aliases: list[str] = strawberry.field(description="Other names that resolve to it.")
    created_at: datetime | None = strawberry.field(description="When it was first seen.")

    @classmethod
    def of(cls, e: domain.Entity) -> Entity:
        return mirror(cls, e, aliases=list(e.aliases))

    async def _facts(self, info: Info) -> tuple[list[Fact], list[Fact]]:
        ctx, ns = info.context, Namespace(self.namespace)
        loader = ctx.loader("facts_about", ns,
                            lambda ids: provenance.facts_about(ctx.db, ns, ids))
        outgoing, incoming = await loader.load(str(self.id))
        return [Fact.of(f) for f in outgoing], [Fact.of(f) for f in incoming]

    @resolver("Current facts with this entity as subject (the newest 200; "
              "`facts(where: {subject})` pages through all).")
    async def facts_out(self, info: Info) -> list[Fact]:
        return (await self._facts(info))[0]

    @resolver("Current facts with this entity as object (the newest 200).")
    async def facts_in(self, info: Info) -> list[Fact]:
        return (await self._facts(info))[1]


@scoped
async def entity(
    ctx: Context, ns: Namespace,
    name: Annotated[str, strawberry.argument(description="Its name or any alias.")],
) -> Entity | None:
    found = await domain.by_name(ctx.db, ns, name)
    return Entity.of(found) if found else None


@scoped
async def add_alias(
    ctx: Context, ns: Namespace,
    name: Annotated[str, strawberry.argument(description="The entity's name or alias.")],
    alias: Annotated[str, strawberry.argument(description="Another name for it.")],
) -> Entity:
    return Entity.of(await domain.add_alias(ctx.db, ns, name, alias))


@strawberry.type(description="What merging two entities did.")
class MergeResult:
    entity: Entity = strawberry.field(description="The surviving entity, with its new aliases.")
    merge_id: strawberry.ID = strawberry.field(
        description="Id of the `(:EntityMerge)` audit node (`merge_…`).")
    facts_moved: int = strawberry.field(description="Facts re-pointed to the survivor.")
    edges_moved: int = strawberry.field(description="Fact edges re-attached to the survivor.")
    aliases_moved: int = strawberry.field(description="Aliases that now resolve to it.")
    duplicates_folded: int = strawberry.field(
        description="Facts that became identical and were folded into the oldest (kept as "
                    "superseded history, their evidence added to the survivor).")
    conflicts_opened: int = strawberry.field(
        description="Open conflicts created because both names held different values of a "
                    "one-value predicate at overlapping times (see `conflicts`).")


@scoped
async def merge_entities(
    ctx: Context, ns: Namespace,
    merged: Annotated[str, strawberry.argument(
        name="from", description="The entity that turned out to be the other one.")],
    into: Annotated[str, strawberry.argument(description="The entity that survives.")],
    reason: Annotated[str | None, strawberry.argument(
        description="Why, for the audit trail.")] = None,
) -> MergeResult:
    report = await entity_merge.merge_entities(ctx.db, ns, into, merged,
                                               actor=ctx.principal.name, reason=reason)
    return MergeResult(entity=Entity.of(report.entity), merge_id=strawberry.ID(report.merge_id),
                       facts_moved=report.facts_moved, edges_moved=report.edges_moved,
                       aliases_moved=report.aliases_moved,
                       duplicates_folded=report.duplicates_folded,
                       conflicts_opened=report.conflicts_opened)


@strawberry.type
class Query:
    entity: Entity | None = strawberry.field(
        resolver=entity, description="One entity by name or alias, with its facts.")


@strawberry.type
class Mutation:
    add_alias: Entity = strawberry.field(
        resolver=add_alias, description="Make another name resolve to an entity.")
    merge_entities: MergeResult = strawberry.field(
        resolver=merge_entities,
        description="Fold one entity into another: facts, provenance and aliases move; the "
                    "merge is recorded.")
