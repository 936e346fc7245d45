"""GraphQL for federated memory: a device's push into a shared namespace, and the pull of
what the other devices pushed (`graphmem sync`; README "Federated memory")."""

from __future__ import annotations

from typing import Annotated

import strawberry

from graphmem.api.erasure import ErasureReceipt, receipt_of
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


@strawberry.type(description="Something the shared side erased because a device erased the "
                             "turns behind it: a device pulling it erases its copy.")
class SyncTombstone:
    kind: str = strawberry.field(description="fact, summary or turn (a reference to one).")
    id: strawberry.ID = strawberry.field(description="Its id.")


@strawberry.type(description="A page of the references to one device's turns held here.")
class HeldTurnIds:
    ids: list[strawberry.ID] = strawberry.field(description="Turn ids (the device's episode "
                                                            "ids), in id order.")
    has_more: bool = strawberry.field(description="Whether more follow (`after` the last).")


@strawberry.type(description="A page of what changed in the shared namespace after a cursor.")
class SyncPage:
    lines: list[str] = strawberry.field(description=(
        "Export-format JSON Lines (docs/export-format.md): header, nodes, relationships, end."))
    cursor: str = strawberry.field(description="Where the next pull starts.")
    has_more: bool = strawberry.field(description="Whether another page follows now.")
    erased: list[SyncTombstone] = strawberry.field(description=(
        "What the shared side erased after the cursor (a device erased the turns behind "
        "it): erase these too."))


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
    return SyncPage(lines=page.lines, cursor=page.cursor, has_more=page.has_more,
                    erased=[SyncTombstone(kind=kind, id=strawberry.ID(key))
                            for kind, key in page.erased])


@scoped
async def held_turns(
    ctx: Context, ns: Namespace, device: DeviceArg,
    after: Annotated[str | None, strawberry.argument(
        description="The last id of the page before (none: from the first).")] = None,
    first: Annotated[int, strawberry.argument(
        description=f"Ids per page, 1-{domain.MAX_PAGE}.")] = domain.MAX_PAGE,
) -> HeldTurnIds:
    ids, more = await domain.held_turns(ctx.db, ns, device, after, first)
    return HeldTurnIds(ids=[strawberry.ID(i) for i in ids], has_more=more)


@scoped
async def erase_held_turns(
    ctx: Context, ns: Namespace, device: DeviceArg,
    ids: Annotated[list[strawberry.ID], strawberry.argument(description=(
        "Turns the device erased (its episode ids): their references go, with the facts "
        "they alone supported and the summaries they alone covered."))],
) -> ErasureReceipt:
    return receipt_of(await domain.erase_held(ctx.db, ns, device, [str(i) for i in ids],
                                              f"sync:{device}"))


@strawberry.type
class Query:
    held_turns: HeldTurnIds = strawberry.field(
        resolver=held_turns,
        description="Federated memory: the references to one device's turns held here (ids "
                    "only), so the device can say which it has erased.")
    memory_changes: SyncPage = strawberry.field(
        resolver=memory_changes,
        description="Federated memory: what other devices pushed (and what the shared side "
                    "resolved) after a cursor, never including turns.")


@strawberry.type
class Mutation:
    erase_held_turns: ErasureReceipt = strawberry.field(
        resolver=erase_held_turns,
        description="Federated memory: a device erased these turns; erase what this shared "
                    "namespace holds only because of them, with a receipt. Other devices "
                    "erase their copies at their next pull.")
    push_memory: SyncPush = strawberry.field(
        resolver=push_memory,
        description="Federated memory: a device's facts, history, conflicts and summaries "
                    "into the shared namespace, in one transaction; idempotent by ids. Bad "
                    "input writes nothing.")
