"""Walking the memory graph from an entity: breadth-first along fact edges.

One bounded query per hop (depth at most 4), so a hub entity cannot blow up a request: the
walk stops at ``limit`` edges and says it was truncated. Edges are filtered like facts —
current by default, optionally valid at a moment, by predicate and direction.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum

from graphmem.core.errors import InvalidInput, NotFound
from graphmem.core.identifiers import normalise_predicate, relationship_type
from graphmem.core.namespaces import Namespace
from graphmem.core.timeutil import require_aware, to_native
from graphmem.db.database import Database, Row
from graphmem.facts import entities
from graphmem.facts.model import CURRENT, FactStatus, literal_text

MAX_DEPTH = 4
MAX_EDGES = 1000
MAX_PREDICATES = 50


class Direction(StrEnum):
    OUT = "out"
    IN = "in"
    BOTH = "both"


@dataclass(frozen=True)
class Node:
    id: str
    kind: str  # "entity" or "value"
    name: str
    type: str | None  # an entity's type, or a value's datatype
    depth: int


@dataclass(frozen=True)
class Edge:
    fact_id: str  # the fact is read when wanted: a walk that draws the graph needs only ids
    from_id: str
    to_id: str
    depth: int


@dataclass(frozen=True)
class Traversal:
    root: Node
    nodes: list[Node]
    edges: list[Edge]
    truncated: bool


@dataclass(frozen=True)
class Walk:
    start: str
    depth: int = 2
    predicates: list[str] | None = None
    direction: Direction = Direction.BOTH
    valid_at: datetime | None = None
    include_history: bool = False
    limit: int = 200


async def traverse(db: Database, ns: Namespace, walk: Walk) -> Traversal:
    types = _check(walk)
    start = await entities.by_name(db, ns, walk.start)
    if start is None:
        raise NotFound(f"no entity named {walk.start!r}", field="from")
    root = Node(start.id, "entity", start.name, start.type, 0)
    nodes: dict[str, Node] = {root.id: root}
    edges: dict[str, Edge] = {}
    frontier, truncated = [root.id], False
    statuses = list(FactStatus) if walk.include_history else list(CURRENT)
    # Current means valid now, unless the caller travels in time or asks for everything.
    valid_at = walk.valid_at or (None if walk.include_history else datetime.now(UTC))
    for depth in range(1, walk.depth + 1):
        if not frontier:
            break
        rows = await db.read(
            "facts/traversal/hop", ns=ns, frontier=frontier, direction=walk.direction.value,
            types=types, statuses=[s.value for s in statuses],
            valid_at=to_native(valid_at), seen_facts=list(edges),
            limit=walk.limit - len(edges) + 1)
        frontier = []
        for row in rows:
            if len(edges) == walk.limit:
                truncated = True
                break
            edges.setdefault(row["fact_id"],
                             Edge(row["fact_id"], row["from_id"], row["to_id"], depth))
            neighbour = _node(row["neighbour"], depth)
            if neighbour.id not in nodes:
                nodes[neighbour.id] = neighbour
                frontier.append(neighbour.id)
        if truncated:
            break
    return Traversal(root, list(nodes.values()), list(edges.values()), truncated)


def _check(walk: Walk) -> list[str] | None:
    if not 1 <= walk.depth <= MAX_DEPTH:
        raise InvalidInput(f"depth must be between 1 and {MAX_DEPTH}", field="depth")
    if not 1 <= walk.limit <= MAX_EDGES:
        raise InvalidInput(f"limit must be between 1 and {MAX_EDGES}", field="limit")
    if walk.valid_at is not None:
        require_aware(walk.valid_at, "validAt")
    if walk.predicates is None:
        return None
    if not 1 <= len(walk.predicates) <= MAX_PREDICATES:
        raise InvalidInput(f"give 1 to {MAX_PREDICATES} predicates", field="predicates")
    return sorted({relationship_type(normalise_predicate(p)) for p in walk.predicates})


def _node(row: Row, depth: int) -> Node:
    if row["entity"]:
        return Node(row["id"], "entity", row["name"], row.get("type"), depth)
    return Node(row["id"], "value", literal_text(row.get("datatype"), row["key"]),
                row.get("datatype"), depth)
