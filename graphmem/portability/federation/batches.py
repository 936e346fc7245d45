"""A sync's records: read and checked as an import's first pass checks a file, named as the
receiver names them (its own entities and values by name), and merged under a sync's rules
(an ending is never undone, an erasure never brought back)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from graphmem.core.errors import InvalidInput
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database, Row, Tx
from graphmem.facts import supersession
from graphmem.portability import importing
from graphmem.portability.format import EMBEDDED, NodeRecord, RelRecord, parse, read_header
from graphmem.portability.validation import FileCheck


@dataclass(frozen=True)
class Batch:
    """A sync's records, read and checked, with what the receiver calls its nodes."""

    nodes: list[tuple[int, NodeRecord]]
    rels: list[tuple[int, RelRecord]]
    renamed: dict[tuple[str, str], str]  # (label, key sent) -> the receiver's key

    def key(self, label: str, key: str | None) -> str | None:
        return self.renamed.get((label, key), key) if key is not None else None


async def read(db: Database, ns: Namespace, lines: list[str],
               allowed: tuple[str, ...]) -> tuple[Batch, set[str]]:
    """The lines parsed, held to what a sync may carry, named as the receiver names them,
    and checked as an import's first pass checks a file; with the facts of it the receiver
    holds forgotten."""
    if not lines:
        raise InvalidInput("a sync's lines start with an export header", field="lines")
    read_header(lines[0])
    nodes: list[tuple[int, NodeRecord]] = []
    rels: list[tuple[int, RelRecord]] = []
    for number, text in enumerate(lines[1:], start=2):
        found = parse(text, number) if text.strip() else None
        if isinstance(found, NodeRecord):
            _allowed(found.label, number, allowed)
            nodes.append((number, found))
        elif isinstance(found, RelRecord):
            for label in (found.start[0], found.end[0]):
                _allowed(label, number, allowed)
            rels.append((number, found))
    batch = Batch(nodes, rels, await _natural_ids(db, ns, nodes))
    check = FileCheck(db, ns, ns, batch.key, lambda props, number: props)
    for number, text in enumerate(lines[1:], start=2):
        if text.strip():
            await check.line(text, number)
    await check.finish()
    return batch, check.barred


def _allowed(label: str, number: int, allowed: tuple[str, ...]) -> None:
    if label not in allowed:
        why = "turns never leave their device" if label in ("Episode", "Session", "Actor") \
            else "not something a sync carries"
        raise InvalidInput(f"line {number}: {label}: {why} (a sync carries "
                           f"{', '.join(allowed)})", line=number)


async def _natural_ids(db: Database, ns: Namespace,
                       nodes: list[tuple[int, NodeRecord]]) -> dict[tuple[str, str], str]:
    """Sent entities and values the receiver holds under another id, by name."""
    entities = [{"id": r.key, "key": r.props.get("key")} for _, r in nodes
                if r.label == "Entity" and isinstance(r.props.get("key"), str)]
    values = [{"id": r.key, "datatype": r.props.get("datatype"), "key": r.props.get("key")}
              for _, r in nodes if r.label == "Value" and isinstance(r.props.get("key"), str)]
    if not entities and not values:
        return {}
    rows = await db.read("portability/federation/natural_keys", ns=ns, entities=entities,
                         values=values)
    return {(row["label"], row["key"]): row["id"] for row in rows}


@dataclass
class Merged:
    keys: list[tuple[str, str]]  # the nodes sent, as the receiver names them
    nodes: int
    rels: int


async def merge(tx: Tx, ns: Namespace, batch: Batch, barred: set[str],
                authority: str) -> Merged:
    """Write a batch as an import writes a chunk, under the rules of a sync: the receiver's
    own entity or value stands for one it holds by name; an ending is never undone; and
    while both sides believe a fact, ``authority`` says whose status counts ("held": the
    receiver's, on the shared side, which resolves; "sent": the sender's, on a device,
    which takes the shared side's word)."""
    sent: dict[str, list[str | None]] = defaultdict(list)
    for _, r in batch.nodes:
        sent[r.label].append(r.key)
    settled = (await tx.run("portability/federation/settled", ns=ns, facts=sent["Fact"],
                            conflicts=sent["Conflict"],
                            erasable=sent["Fact"] + sent["Summary"] + sent["DeviceTurn"]))[0]
    gone = barred | set(settled["entombed"])  # forgotten here, or erased (tombstones)
    ended = set(settled["facts"]) | gone
    closed = set(settled["conflicts"])
    # Believed on both sides: on the shared side its own status stands (it may have put the
    # fact in dispute), on a device the shared side's.
    held = set(settled["believed"]) if authority == "held" else set()
    rows = [_node_row(number, r, batch.key(r.label, r.key), r.key in held)
            for number, r in batch.nodes
            if (r.label, r.key) not in batch.renamed
            and not (r.label == "Fact" and r.key in ended)
            and not (r.label == "Conflict" and r.key in closed)
            and r.key not in gone]
    rels = [_rel_row(number, r, batch) for number, r in batch.rels if not _touches(r, gone)]
    if rows:
        await importing.merge_nodes(tx, ns, rows)
    if rels:
        await importing.merge_relationships(tx, ns, rels)
        await supersession.refuse_cycles(tx, ns, [
            {"winner": r["from_key"], "loser": r["to_key"], "line": r["line"]}
            for r in rels if r["type"] == "SUPERSEDES"])
    # Every fact written, with its ends or without (one sent only as the end of another
    # node's relationship): its identity as this side's ids make it, not as the sender's.
    await importing.identities_of(tx, ns, sorted(
        {r["key"] for r in rows if r["label"] == "Fact"}
        | {r["from_key"] for r in rels
           if r["from_label"] == "Fact" and r["type"] in ("SUBJECT", "OBJECT")}))
    fact_ids = sorted({r["key"] for r in rows if r["label"] == "Fact"}
                      | {r["props"]["fact_id"] for r in rels
                         if isinstance(r["props"].get("fact_id"), str)})
    if fact_ids:
        await importing.align_edges(tx, ns, fact_ids)
    # An entity held under another id is still one whose edges this batch may have moved.
    keys = [(r.label, str(batch.key(r.label, r.key))) for _, r in batch.nodes
            if r.key is not None]
    return Merged(keys, len(rows), len(rels))


def _node_row(number: int, record: NodeRecord, key: str | None, held: bool) -> Row:
    props = dict(record.props)
    if record.label == "Fact" and held and props.get("retracted_at") is None:
        props.pop("status", None)
    return {"line": number, "label": record.label, "key": key, "props": props,
            "embed": record.label in EMBEDDED}


def _rel_row(number: int, record: RelRecord, batch: Batch) -> Row:
    (start, start_key), (end, end_key) = record.start, record.end
    return {"line": number, "type": record.type, "from_label": start,
            "from_key": batch.key(start, start_key), "to_label": end,
            "to_key": batch.key(end, end_key), "props": record.props}


def _touches(rel: RelRecord, gone: set[str]) -> bool:
    """Whether a relationship joins what the receiver holds forgotten or erased (a fact, by
    its statement node or its edge; a summary; a turn's reference)."""
    if not gone:
        return False
    ids = [key for _, key in (rel.start, rel.end)]
    if isinstance(rel.props.get("fact_id"), str):
        ids.append(rel.props["fact_id"])
    return any(i in gone for i in ids)
