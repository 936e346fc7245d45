"""The shared side's sequence: each node a push changed (or the shared side changed itself)
is stamped with the next sequence number, the device whose push left it as it is (none when
the shared side changed it: every device pulls those) and its fingerprint, so a repeat push,
which moves no fingerprint, stamps nothing."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from graphmem.core.namespaces import Namespace
from graphmem.db.database import Row, Tx
from graphmem.portability.federation.content import IGNORED
from graphmem.portability.federation.cursors import SHARED, advance, last_sequence_in
from graphmem.portability.format import encode


@dataclass(frozen=True)
class Stamped:
    sequence: int  # the namespace's sequence number after it
    changed: int  # nodes stamped


async def stamp(tx: Tx, ns: Namespace, device: str, sent: list[tuple[str, str]],
                resolved: set[tuple[str, str]]) -> Stamped:
    """Stamp the nodes whose fingerprint moved with the next sequence number: with the
    pushing device when its push left them as sent (its own pull skips them), else with
    none (every device pulls what the shared side changed itself)."""
    keys = sorted(set(sent) | resolved)
    rows = await tx.run("portability/federation/fingerprints", ns=ns,
                        nodes=[{"label": label, "key": key} for label, key in keys])
    moved = [(row, fingerprint(row)) for row in rows]
    moved = [(row, print_) for row, print_ in moved if print_ != row["hash"]]
    seq = await last_sequence_in(tx, ns)
    if not moved:
        return Stamped(seq, 0)
    seq += 1
    await tx.run("portability/federation/stamp", ns=ns, seq=seq, nodes=[
        {"label": row["label"], "key": row["key"], "hash": print_,
         "device": None if (row["label"], row["key"]) in resolved else device}
        for row, print_ in moved])
    await advance(tx, ns, SHARED, seq)
    return Stamped(seq, len(moved))


async def syncable(tx: Tx, ns: Namespace) -> set[tuple[str, str]]:
    """Every node of the namespace a sync carries, as (label, key)."""
    nodes = (await tx.run("portability/federation/syncable", ns=ns))[0]["nodes"]
    return {(row["label"], row["key"]) for row in nodes}


async def stamp_own_changes(tx: Tx, ns: Namespace) -> None:
    """What changed here since the last push without a push (written on the shared service
    itself), stamped for every device, before a push is merged: a push that then sends an
    older copy of it does not make it that device's own (its pull would skip it)."""
    await stamp(tx, ns, "", [], await syncable(tx, ns))


def fingerprint(row: Row) -> str:
    """A node's properties and outgoing relationships, as a digest: what a push compares to
    tell a change from a repeat."""
    props = {k: encode(v) for k, v in row["props"].items() if k not in IGNORED and v is not None}
    rels = sorted(json.dumps([r["type"], sorted(r["to"]), r["key"],
                              {k: encode(v) for k, v in r["props"].items() if v is not None}],
                             sort_keys=True) for r in row["rels"])
    text = json.dumps([row["label"], props, rels], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()
