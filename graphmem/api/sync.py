"""GraphQL for federated memory: a device's push into a shared namespace, and the pull of
what the other devices pushed (`graphmem sync`; README "Federated memory")."""

from __future__ import annotations

from typing import Annotated

import strawberry

from graphmem.api.server.context import Context
from graphmem.api.server.scope import scoped
from graphmem.core.namespaces import Namespace
from graphmem.portability import federation as domain

DeviceArg = Annotated[str, strawberry.argument(
    description="The device's name (1-64 letters, digits, '.', '_', '-'): what references to "
                "its turns say they are held on.")]


@strawberry.type(description="What a push did on the shared side.")
class SyncPush:
    sequence: int = strawberry.field(description=(
        "The namespace's sync sequence number after it (unchanged by a push that changed "
        "nothing)."))
    nodes: int = strawberry.field(description="Nodes written (merged by their ids).")
    relationships: int = strawberry.field(description="Relationships written.")
    changed: int = strawberry.field(description=(
        "Nodes whose content moved: what other devices' pulls will bring. 0 for a repeat."))
    ended: list[str] = strawberry.field(description=(
        "Facts the shared side's resolution ended (a fact from another device said later "
        "wins under RECENCY: the time it was said, not the time it synced)."))
    disputed: int = strawberry.field(description="Disputes its resolution opened.")
    forgotten: int = strawberry.field(description=(
        "Facts of the push the namespace holds forgotten: left forgotten."))


@strawberry.type(description="A page of what changed in the shared namespace after a cursor.")
class SyncPage:
    lines: list[str] = strawberry.field(description=(
        "Export-format JSON Lines (docs/export-format.md): header, nodes, relationships, end."))
    cursor: str = strawberry.field(description="Where the next pull starts.")
    has_more: bool = strawberry.field(description="Whether another page follows now.")


@scoped
async def push_memory(
    ctx: Context, ns: Namespace, device: DeviceArg,
    lines: Annotated[list[str], strawberry.argument(description=(
        "Export-format JSON Lines of facts, their history, conflicts, policies and "
        "(if the device syncs them) summaries, with references to turns (`DeviceTurn`) in "
        "place of turns. Episodes are refused."))],
) -> SyncPush:
    done = await domain.receive_push(ctx.db, ns, device, lines, f"sync:{device}")
    return SyncPush(sequence=done.sequence, nodes=done.nodes, relationships=done.relationships,
                    changed=done.changed, ended=done.ended, disputed=done.disputed,
                    forgotten=done.forgotten)


@scoped
async def memory_changes(
    ctx: Context, ns: Namespace, device: DeviceArg,
    after: Annotated[str | None, strawberry.argument(
        description="The cursor of the last page pulled (none: from the start).")] = None,
    first: Annotated[int, strawberry.argument(
        description=f"Nodes per page, 1-{domain.MAX_PAGE}.")] = domain.PAGE,
) -> SyncPage:
    page = await domain.changes(ctx.db, ns, device, after, first)
    return SyncPage(lines=page.lines, cursor=page.cursor, has_more=page.has_more)


@strawberry.type
class Query:
    memory_changes: SyncPage = strawberry.field(
        resolver=memory_changes,
        description="Federated memory: what other devices pushed (and what the shared side "
                    "resolved) after a cursor, never including turns.")


@strawberry.type
class Mutation:
    push_memory: SyncPush = strawberry.field(
        resolver=push_memory,
        description="Federated memory: a device's facts, history, conflicts and summaries "
                    "into the shared namespace, in one transaction; idempotent by ids. Bad "
                    "input writes nothing.")
