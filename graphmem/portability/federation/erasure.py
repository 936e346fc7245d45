"""A device's erasure followed: the shared side lists the references to a device's turns it
holds, erases those the device no longer holds (with the facts and summaries they alone
supported) and leaves tombstones, which the other devices' pulls erase in turn and no push
brings back."""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime

from graphmem.core.errors import InvalidInput
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database, Tx
from graphmem.governance import erasure as governed
from graphmem.portability.federation.content import MAX_PAGE, check_device, check_page
from graphmem.portability.federation.cursors import SHARED, advance, last_sequence_in


async def held_turns(db: Database, ns: Namespace, device: str, after: str | None,
                     first: int = MAX_PAGE) -> tuple[list[str], bool]:
    """Ids of the references to ``device``'s turns the shared namespace holds (a page)."""
    check_device(device)
    check_page(first)
    ids = (await db.read("portability/federation/held_turns", ns=ns, device=device,
                         after=after or "", limit=first))[0]["ids"]
    return list(ids), len(ids) == first


async def erase_held(db: Database, ns: Namespace, device: str, ids: list[str],
                     actor: str) -> governed.Receipt:
    """A device erased these turns: their references here go, with the facts they alone
    supported and the summaries they alone covered, and tombstones tell the other devices'
    pulls to erase them too (and any push not to bring them back)."""
    check_device(device)
    if not 1 <= len(ids) <= MAX_PAGE:
        raise InvalidInput(f"give 1 to {MAX_PAGE} turn ids", field="ids")
    turns = sorted((await db.read("portability/federation/held_of", ns=ns, device=device,
                                  ids=sorted(set(ids))))[0]["ids"])  # its own references only

    async def entomb(tx: Tx, facts: list[str], summaries: list[str]) -> None:
        seq = await last_sequence_in(tx, ns) + 1
        await tx.run("portability/federation/entomb", ns=ns, seq=seq, now=datetime.now(UTC),
                     erased=[*({"kind": "turn", "id": i} for i in turns),
                             *({"kind": "fact", "id": i} for i in facts),
                             *({"kind": "summary", "id": i} for i in summaries)])
        await advance(tx, ns, SHARED, seq)

    return (await governed.erase_held_turns(db, ns, turns, actor, entomb)).receipt


async def missing_turns(db: Database, ns: Namespace, ids: list[str]) -> list[str]:
    """Of these turn ids, those this device no longer holds (erased since it pushed them)."""
    if not ids:
        return []
    held = set((await db.read("portability/federation/own_turns", ns=ns, ids=ids))[0]["ids"])
    return [i for i in ids if i not in held]


async def erase_here(tx: Tx, ns: Namespace, erased: list[tuple[str, str]]) -> dict[str, int]:
    """On a device, in a pulled page's transaction: what the shared side erased (tombstones:
    kind and id), erased here too. Counts by kind."""
    if not erased:
        return {}
    by_kind: dict[str, list[str]] = defaultdict(list)
    for kind, key in erased:
        by_kind[kind].append(key)
    counts = await governed.erase_synced_in(tx, ns, by_kind["turn"], by_kind["fact"],
                                            by_kind["summary"])
    return {kind: n for kind, n in counts.items() if n}
