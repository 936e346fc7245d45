"""GraphQL types and resolvers for walking the graph and reading an entity's timeline."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, TypeAlias

import strawberry

from graphmem.api.facts import Fact, load_fact
from graphmem.api.server.arguments import AfterArg, FirstArg
from graphmem.api.server.context import Context, Info
from graphmem.api.server.fields import mirror, resolver
from graphmem.api.server.pagination import Connection, to_connection
from graphmem.api.server.scope import scoped
from graphmem.core.namespaces import Namespace
from graphmem.core.pagination import page_size
from graphmem.facts import timeline as timeline_domain
from graphmem.facts import traversal as domain

# The domain enum is the GraphQL enum: strawberry.enum registers the class in place.
Direction: TypeAlias = domain.Direction
strawberry.enum(Direction, description=(
    "Which edges to follow: out (entity as subject), in (entity as object), or both."))


@strawberry.type(description="An entity or a literal value reached by a traversal.")
class GraphNode:
    id: strawberry.ID = strawberry.field(description="`ent_…` or `val_…`.")
    kind: str = strawberry.field(description="`entity` or `value`.")
    name: str = strawberry.field(description="The entity's name, or the literal's text.")
    type: str | None = strawberry.field(description="The entity's type, or the literal's "
                                                    "datatype.")
    depth: int = strawberry.field(description="Hops from the start (0 for the start).")

    @classmethod
    def of(cls, node: domain.Node) -> GraphNode:
        return mirror(cls, node)


@strawberry.type(description="A fact edge met on the walk, oriented subject → object.")
class GraphEdge:
    namespace: strawberry.Private[str]
    fact_id: strawberry.Private[str]
    from_id: strawberry.ID = strawberry.field(description="The subject node's id.")
    to_id: strawberry.ID = strawberry.field(description="The object node's id.")
    depth: int = strawberry.field(description="The hop at which it was found (1..depth).")

    @resolver("The fact the edge stands for (read only when a query selects it: a walk that "
              "draws the graph needs only ids).")
    async def fact(self, info: Info) -> Fact:
        return await load_fact(info.context, Namespace(self.namespace), self.fact_id)


@strawberry.type(description="The neighbourhood of an entity: nodes and the fact edges "
                             "between them.")
class Traversal:
    root: GraphNode = strawberry.field(description="The entity the walk started from.")
    nodes: list[GraphNode] = strawberry.field(description="Every node reached, root first.")
    edges: list[GraphEdge] = strawberry.field(description="Every fact edge followed.")
    truncated: bool = strawberry.field(description="True when `limit` stopped the walk early.")


@strawberry.type(description="A fact placed on an entity's timeline.")
class TimelineEntry:
    at: datetime = strawberry.field(description="When it became true (validFrom), or when it "
                                                "was recorded if that is unknown.")
    fact: Fact = strawberry.field(description="The fact, with its status today.")


@scoped
async def traverse(
    ctx: Context, ns: Namespace,
    start: Annotated[str, strawberry.argument(name="from",
                                              description="Start entity: name or alias.")],
    depth: Annotated[int, strawberry.argument(description="Hops, 1..4.")] = 2,
    predicates: Annotated[list[str] | None, strawberry.argument(
        description="Only these predicates (default: all).")] = None,
    direction: Annotated[Direction, strawberry.argument(
        description="Which edges to follow.")] = domain.Direction.BOTH,
    valid_at: Annotated[datetime | None, strawberry.argument(
        description="Edges true in the world at this instant (default: now).")] = None,
    include_history: Annotated[bool, strawberry.argument(
        description="Also superseded and retracted facts.")] = False,
    limit: Annotated[int, strawberry.argument(
        description=f"At most this many edges (1..{domain.MAX_EDGES}).")] = 200,
) -> Traversal:
    walked = await domain.traverse(ctx.db, ns, domain.Walk(
        start=start, depth=depth, predicates=predicates, direction=domain.Direction(direction),
        valid_at=valid_at, include_history=include_history, limit=limit))
    return Traversal(
        root=GraphNode.of(walked.root), nodes=[GraphNode.of(n) for n in walked.nodes],
        edges=[GraphEdge(namespace=ns, fact_id=e.fact_id, from_id=strawberry.ID(e.from_id),
                         to_id=strawberry.ID(e.to_id), depth=e.depth) for e in walked.edges],
        truncated=walked.truncated)


@scoped
async def timeline(
    ctx: Context, ns: Namespace,
    entity: Annotated[str, strawberry.argument(description="The entity's name or alias.")],
    include_history: Annotated[bool, strawberry.argument(
        description="Every version, superseded and retracted too (default: the story "
                    "memory believes now).")] = False,
    first: FirstArg = 50, after: AfterArg = None,
) -> Connection[TimelineEntry]:
    page = await timeline_domain.of_entity(ctx.db, ns, entity,
                                           page_size(first, ctx.settings.max_page), after,
                                           include_history)
    return to_connection(page, lambda item: TimelineEntry(at=item[0], fact=Fact.of(item[1])))


@strawberry.type
class Query:
    traverse: Traversal = strawberry.field(
        resolver=traverse,
        description="Walk fact edges breadth-first from an entity (at most 4 hops).")
    timeline: Connection[TimelineEntry] = strawberry.field(
        resolver=timeline,
        description="The facts about an entity in world-time order: its story.")
