"""A pull, on the shared side: a page of what changed after a cursor (export records, each
node with its outgoing relationships and the nodes they end at), leaving out what the asking
device's own pushes left as it sent them, with the tombstones stamped meanwhile."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database, Row
from graphmem.portability.federation.content import (
    IGNORED,
    PAGE,
    SYNCED,
    check_device,
    check_page,
    framed,
)
from graphmem.portability.federation.cursors import DONE, cursor_of, last_sequence, parse_cursor
from graphmem.portability.format import LABELS, node, relationship

MAX_ERASED = 100_000  # tombstones a page hands out (each a kind and an id)


@dataclass(frozen=True)
class Page:
    lines: list[str]
    cursor: str
    has_more: bool
    erased: list[tuple[str, str]]  # (kind, id): what the shared side erased after the cursor


async def changes(db: Database, ns: Namespace, device: str, after: str | None,
                  first: int = PAGE) -> Page:
    """What changed in the shared namespace after the cursor, except what ``device``'s own
    pushes left as it sent them: a page of export records, each node with its outgoing
    relationships and the nodes they end at."""
    check_device(device)
    check_page(first)
    seq, label, key = parse_cursor(after) if after else (0, DONE, "")
    # Two reads, not one snapshot: a push between them stamps past ``upto`` and is left to
    # the next pull; a node it re-stamps moves past the window and comes then, whole.
    upto = await last_sequence(db, ns)
    rows = await db.read("portability/federation/changed", ns=ns, device=device,
                         after_seq=seq, after_label=label, after_key=key, upto=upto,
                         limit=first, labels=list(SYNCED))
    has_more = len(rows) == first
    last = rows[-1] if rows and has_more else None
    cursor = cursor_of(int(last["seq"]), last["label"], _identity(last["label"],
                                                                    last["props"])) \
        if last else cursor_of(upto, DONE, "")
    erased = await db.read("portability/federation/erased", ns=ns, after_seq=seq, upto=upto,
                           limit=MAX_ERASED)
    return Page(framed(ns, _records(rows)), cursor, has_more,
                [(row["kind"], row["id"]) for row in erased])


def _records(rows: list[Row]) -> list[dict[str, Any]]:
    nodes: dict[tuple[str, str | None], dict[str, Any]] = {}
    context: dict[tuple[str, str | None], dict[str, Any]] = {}
    rels = []
    for row in rows:
        key = _identity(row["label"], row["props"])
        nodes[(row["label"], key)] = _node(row["label"], row["props"])
        for rel in row["rels"]:
            end_key = _identity(rel["to"], rel["end"])
            context.setdefault((rel["to"], end_key), _node(rel["to"], rel["end"]))
            rels.append(relationship(rel["type"], (row["label"], key), (rel["to"], end_key),
                                     rel["props"]))
    extra = [record for name, record in context.items() if name not in nodes]
    order = {label: i for i, label in enumerate(SYNCED)}
    listed = sorted([*nodes.values(), *extra], key=lambda r: order[r["node"]])
    return [*listed, *rels]


def _identity(label: str, props: Row) -> str | None:
    name = LABELS[label]
    return props.get(name) if name else None


def _node(label: str, props: Row) -> dict[str, Any]:
    name = LABELS[label]
    return node(label, props.get(name) if name else None,
                {k: v for k, v in props.items() if k not in IGNORED and k != name})

