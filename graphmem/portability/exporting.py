"""Export: a namespace's whole memory as the records of the export format, streamed from one
consistent read, so a namespace of any size is written in constant memory. An archived
episode's content is read back from the archive store into the file (the episode is left
archived): a file carries content, never a key to this namespace's archive objects."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

from graphmem.archive import stores as archive_stores
from graphmem.archive import tiering
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database, Row
from graphmem.portability.format import (
    DERIVED,
    LABELS,
    REBUILT_RELATIONSHIPS,
    SEALED,
    Digest,
    header,
    node,
    relationship,
)
from graphmem.security import encryption

ARCHIVE_MARKS = ("archived_at", "archive_key", "archive_bytes")  # what only the source uses


async def count_nodes(db: Database, ns: Namespace) -> int:
    """How many nodes an export of ``ns`` writes (the length of a progress bar)."""
    return int((await db.read("portability/count_nodes", ns=ns))[0]["nodes"])


async def export(db: Database, ns: Namespace, decrypt: bool = False,
                 ) -> AsyncIterator[dict[str, Any]]:
    """The header, every node, every relationship, then the counts. Encrypted episode content
    stays sealed (bound to ``ns``) unless ``decrypt``: then it is exported as plaintext."""
    yield header(ns, decrypt, datetime.now(UTC))
    nodes = relationships = 0
    digest = Digest()
    async with db.snapshot() as snapshot:
        async for row in snapshot.stream("portability/nodes", ns=ns):
            if row["label"] == "Episode" and row["props"].get("archive_key"):
                row = {**row, "props": await _with_content(db, ns, row["props"])}
            record = _node(db, row, ns, decrypt)
            digest.add(record)
            yield record
            nodes += 1
        async for row in snapshot.stream("portability/relationships", ns=ns):
            found = _relationship(row)
            if found is not None:
                digest.add(found)
                yield found
                relationships += 1
    yield {"end": {"nodes": nodes, "relationships": relationships, "digest": digest.value}}


def _node(db: Database, row: Row, ns: Namespace, decrypt: bool) -> dict[str, Any]:
    label, props = row["label"], row["props"]
    identity = LABELS[label]
    key = props.pop(identity) if identity else None
    if decrypt and label == "Episode":
        for name in SEALED:
            props[name] = encryption.reveal(db, props.get(name), ns)
    return node(label, key, {name: value for name, value in props.items()
                             if name not in DERIVED})


async def _with_content(db: Database, ns: Namespace, props: Row) -> Row:
    moved = await tiering.read_back(db, archive_stores.required(db), ns, props)
    return {**{name: value for name, value in props.items() if name not in ARCHIVE_MARKS},
            "content": moved["content"], "metadata": moved["metadata"]}


def _relationship(row: Row) -> dict[str, Any] | None:
    targets = [label for label in row["target_labels"] if label in LABELS]
    if row["type"] in REBUILT_RELATIONSHIPS or not targets:
        return None  # the NEXT chain, or a link to a node that is not exported
    return relationship(row["type"], _end(row["label"], row["source"]),
                        _end(targets[0], row["target"]), row["props"])


def _end(label: str, names: Row) -> tuple[str, str | None]:
    identity = LABELS[label]
    return label, names[identity] if identity else None
