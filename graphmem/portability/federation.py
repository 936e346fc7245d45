"""Federated memory: what a shared service keeps of the devices' pushes, what a pull hands
back, and how a device takes it in (`graphmem sync`, README "Federated memory").

A sync carries records of the export format (``format``), framed like an export file
(header, records, end with counts and digest), so a push is checked as an import is
(``validation.FileCheck``) and written through the import's own statements. What differs
from an import, and why:

- **No turn is in it.** Labels are those of :data:`SYNCED`; a fact's evidence and a
  summary's coverage point at ``(:DeviceTurn {id, device, said_at, content_hash})``, a
  reference to a turn its device holds (the id is the device's episode id), joined by
  :data:`TURN_LINKS`. On the device that holds the turn, the reference is the episode again.
- **Entities and values are matched by name**, not id: two devices that each learned of
  "Dana" made two ids for one person (ids stay stable for everything else, so a fact has
  one id on every side).
- **An ending is never undone**: a fact one side stopped believing (superseded, retracted,
  forgotten) or a conflict it settled stays so, whatever an older copy says.
- **The shared service resolves**: facts learned apart on a ONE predicate are resolved there
  by the predicate's policy in world-time order (``facts.store.reconcile_in``), once, and
  devices take its result. It stamps what each push changed with the push's sequence
  number, so a pull pages through what changed after its cursor; a push that changes
  nothing stamps nothing.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from graphmem.core.errors import ConcurrentChange, InvalidInput
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database, Row, Tx
from graphmem.facts import plan_writer, supersession
from graphmem.facts import store as facts
from graphmem.governance import erasure
from graphmem.portability.format import (
    DERIVED,
    EMBEDDED,
    LABELS,
    Digest,
    NodeRecord,
    RelRecord,
    encode,
    header,
    node,
    parse,
    read_header,
    relationship,
)
from graphmem.portability.importing import check_relationships, identities_again
from graphmem.portability.validation import FileCheck


class Content(StrEnum):
    """What a namespace syncs (``GRAPHMEM_SYNC_CONTENT``, ``graphmem sync --content``)."""

    FACTS = "facts"
    FACTS_AND_SUMMARIES = "facts_and_summaries"
    NOTHING = "nothing"


# What a sync may carry, in the order a page lists them. Never an Episode, a Session or an
# Actor: the conversation stays on its device.
SYNCED = ("Entity", "Value", "Alias", "DeviceTurn", "Fact", "Summary", "Conflict",
          "PredicatePolicy")
# A device's links to its own turns, and the links to their references elsewhere.
TURN_LINKS = MappingProxyType({"EVIDENCED_BY": "EVIDENCED_BY_TURN",
                               "SUMMARIZES": "SUMMARIZES_TURN",
                               "RETRACTED_IN": "RETRACTED_IN_TURN"})
OWN_LINKS = MappingProxyType({turn: own for own, turn in TURN_LINKS.items()})
SHARED = "*"  # the peer a shared service's own sequence is kept under
IGNORED = DERIVED | {"embed_error"}  # the holder's own bookkeeping: not compared, not sent
PAGE = 500  # nodes a pull page holds by default
MAX_PAGE = 2_000
MAX_ERASED = 100_000  # tombstones a page hands out (each a kind and an id)
LEASE_S = 900  # how long a device's sync holds its namespace unrenewed (renewed every page)
_DEVICE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
_DONE = "~"  # a cursor's label after every label: the whole sequence number was read


def labels(content: Content) -> tuple[str, ...]:
    """The labels a namespace with this setting sends and takes."""
    match content:
        case Content.FACTS:
            return tuple(label for label in SYNCED if label != "Summary")
        case Content.FACTS_AND_SUMMARIES:
            return SYNCED
        case Content.NOTHING:
            return ()


def check_device(device: str) -> str:
    """A device's name: what a reference to its turns says they are held on."""
    if not _DEVICE.fullmatch(device):
        raise InvalidInput("device is 1-64 letters, digits, '.', '_' or '-', starting with a "
                           "letter or digit", field="device")
    return device


def framed(ns: Namespace, records: Iterable[dict[str, Any]]) -> list[str]:
    """Records as the lines of an export file: header, records, end with counts and digest."""
    body = list(records)
    digest = Digest()
    for record in body:
        digest.add(record)
    nodes = sum(1 for record in body if "node" in record)
    end = {"end": {"nodes": nodes, "relationships": len(body) - nodes, "digest": digest.value}}
    return [json.dumps(r, ensure_ascii=False, separators=(",", ":"))
            for r in (header(ns, False, datetime.now(UTC)), *body, end)]


@dataclass
class Received:
    """What taking in a push or a pulled page did."""

    sequence: int = 0  # the shared side's sequence number after a push
    nodes: int = 0
    relationships: int = 0
    changed: int = 0  # nodes a push changed (stamped for the other devices' pulls)
    ended: list[str] = field(default_factory=list)  # facts the shared side's resolution ended
    disputed: int = 0  # disputes its resolution opened
    forgotten: int = 0  # facts of the sync its receiver holds forgotten: left as they are
    erased: dict[str, int] = field(default_factory=dict)  # a page's tombstones, erased here


@dataclass(frozen=True)
class _Batch:
    """A sync's records, read and checked, with what the receiver calls its nodes."""

    nodes: list[tuple[int, NodeRecord]]
    rels: list[tuple[int, RelRecord]]
    renamed: dict[tuple[str, str], str]  # (label, key sent) -> the receiver's key

    def key(self, label: str, key: str | None) -> str | None:
        return self.renamed.get((label, key), key) if key is not None else None


async def receive_push(db: Database, ns: Namespace, device: str, lines: list[str],
                       actor: str) -> Received:
    """A device's push into the shared namespace ``ns``, in one transaction: the whole of it
    checked first (a bad one writes nothing), then kept, resolved and stamped."""
    check_device(device)
    batch, barred = await _read(db, ns, lines, SYNCED)
    return await db.transaction(lambda tx: _keep_push(tx, ns, device, batch, barred, actor))


async def receive_page(db: Database, ns: Namespace, lines: list[str], content: Content,
                       peer: str, cursor: str, erased: list[tuple[str, str]]) -> Received:
    """A pulled page into the device's namespace ``ns``, with the cursor after it, in one
    transaction: an interrupted sync resumes after its last page. ``erased`` (kind, id): what
    the shared side erased since, erased here first."""
    batch, barred = await _read(db, ns, lines, SYNCED)
    allowed = labels(content)
    kept = _Batch([(n, r) for n, r in batch.nodes if r.label in allowed],
                  [(n, r) for n, r in batch.rels
                   if r.start[0] in allowed and r.end[0] in allowed], batch.renamed)
    seq, label, key = parse_cursor(cursor)

    async def write(tx: Tx) -> Received:
        gone = await _erase_here(tx, ns, erased)
        done = await _keep_page(tx, ns, kept, barred)
        done.erased = gone
        await tx.run("portability/sync/advance", ns=ns, peer=peer, seq=seq, label=label,
                     key=key, now=datetime.now(UTC))
        return done

    return await db.transaction(write)


async def _erase_here(tx: Tx, ns: Namespace, erased: list[tuple[str, str]]) -> dict[str, int]:
    if not erased:
        return {}
    by_kind: dict[str, list[str]] = defaultdict(list)
    for kind, key in erased:
        by_kind[kind].append(key)
    counts = await erasure.erase_synced_in(tx, ns, by_kind["turn"], by_kind["fact"],
                                           by_kind["summary"])
    return {kind: n for kind, n in counts.items() if n}


async def held_turns(db: Database, ns: Namespace, device: str, after: str | None,
                     first: int = MAX_PAGE) -> tuple[list[str], bool]:
    """Ids of the references to ``device``'s turns the shared namespace holds (a page)."""
    check_device(device)
    if not 1 <= first <= MAX_PAGE:
        raise InvalidInput(f"first must be 1-{MAX_PAGE}", field="first")
    ids = (await db.read("portability/sync/held_turns", ns=ns, device=device,
                         after=after or "", limit=first))[0]["ids"]
    return list(ids), len(ids) == first


async def erase_held(db: Database, ns: Namespace, device: str, ids: list[str],
                     actor: str) -> erasure.Receipt:
    """A device erased these turns: their references here go, with the facts they alone
    supported and the summaries they alone covered, and tombstones tell the other devices'
    pulls to erase them too (and any push not to bring them back)."""
    check_device(device)
    if not 1 <= len(ids) <= MAX_PAGE:
        raise InvalidInput(f"give 1 to {MAX_PAGE} turn ids", field="ids")
    turns = sorted((await db.read("portability/sync/held_of", ns=ns, device=device,
                                  ids=sorted(set(ids))))[0]["ids"])  # its own references only

    async def entomb(tx: Tx, facts: list[str], summaries: list[str]) -> None:
        seq = int((await tx.run("portability/sync/state", ns=ns, peer=SHARED))[0]["seq"]) + 1
        await tx.run("portability/sync/entomb", ns=ns, seq=seq, now=datetime.now(UTC), erased=[
            *({"kind": "turn", "id": i} for i in turns),
            *({"kind": "fact", "id": i} for i in facts),
            *({"kind": "summary", "id": i} for i in summaries)])
        await tx.run("portability/sync/advance", ns=ns, peer=SHARED, seq=seq, label=_DONE,
                     key="", now=datetime.now(UTC))

    return (await erasure.erase_held_turns(db, ns, turns, actor, entomb)).receipt


async def missing_turns(db: Database, ns: Namespace, ids: list[str]) -> list[str]:
    """Of these turn ids, those this device no longer holds (erased since it pushed them)."""
    if not ids:
        return []
    held = set((await db.read("portability/sync/own_turns", ns=ns, ids=ids))[0]["ids"])
    return [i for i in ids if i not in held]


async def claim(db: Database, ns: Namespace, peer: str, holder: str) -> None:
    """Take the right to sync ``ns`` with ``peer`` for ``holder`` (or renew it): no two syncs
    of one namespace run at once, in one process or several. ConcurrentChange (retryable)
    while another holds it; a holder that died lets go after ``LEASE_S``."""
    now = datetime.now(UTC)
    row = (await db.write("portability/sync/claim", ns=ns, peer=peer, holder=holder, now=now,
                          until=now + timedelta(seconds=LEASE_S)))[0]
    if not row["free"]:
        raise ConcurrentChange("another sync of this namespace is running; try again when it "
                               "ends", namespace=ns)


async def release(db: Database, ns: Namespace, peer: str, holder: str) -> None:
    """A sync that ended, done or failed, lets the next one run."""
    await db.write("portability/sync/release", ns=ns, peer=peer, holder=holder)


async def pulled_up_to(db: Database, ns: Namespace, peer: str) -> str:
    """The cursor a device's next pull from ``peer`` starts after."""
    row = (await db.read("portability/sync/state", ns=ns, peer=peer))[0]
    return cursor_of(int(row["seq"]), row["pulled_label"] or _DONE, row["pulled_key"] or "")


async def _read(db: Database, ns: Namespace, lines: list[str],
                allowed: tuple[str, ...]) -> tuple[_Batch, set[str]]:
    """The lines parsed, held to what a sync may carry, named as the receiver names them,
    and checked as an import's first pass checks a file."""
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
    batch = _Batch(nodes, rels, await _natural_ids(db, ns, nodes))
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
    rows = await db.read("portability/sync/natural_keys", ns=ns, entities=entities,
                         values=values)
    return {(row["label"], row["key"]): row["id"] for row in rows}


async def _keep_push(tx: Tx, ns: Namespace, device: str, batch: _Batch, barred: set[str],
                     actor: str) -> Received:
    await _stamp_own_changes(tx, ns)
    done = await _merge(tx, ns, batch, barred, authority="held")
    fact_ids = sorted({key for label, key in done.keys if label == "Fact"})
    around = await tx.run("portability/sync/around", ns=ns, ids=fact_ids)
    decided = await facts.reconcile_in(
        tx, ns, [(row["subject_id"], row["predicate"]) for row in around], actor)
    await plan_writer.settle_orphaned(tx, ns, datetime.now(UTC))  # a settled conflict sent
    resolved = set(decided.ended) | {s.winner for s in decided.supersessions} \
        | {r.id for r in decided.revisions} | {i for ids in decided.disputes for i in ids}
    touched = [("Fact", i) for i in sorted(resolved)]
    for row in await tx.run("portability/sync/around", ns=ns, ids=sorted(resolved)):
        touched.append(("Entity", row["subject_id"]))  # its edges' statuses moved
        touched += [("Conflict", c) for c in row["conflicts"]]
        touched += [("Summary", s) for s in row["summaries"]]
    result = await _stamp(tx, ns, device, done.keys, set(touched))
    result.nodes, result.relationships, result.forgotten = done.nodes, done.rels, len(barred)
    result.ended, result.disputed = sorted(decided.ended), len(decided.disputes)
    return result


async def _stamp_own_changes(tx: Tx, ns: Namespace) -> None:
    """What changed here since the last push without a push (written on the shared service
    itself), stamped for every device, before the push is merged: a push that then sends an
    older copy of it does not make it that device's own (its pull would skip it)."""
    nodes = (await tx.run("portability/sync/syncable", ns=ns))[0]["nodes"]
    await _stamp(tx, ns, "", [], {(row["label"], row["key"]) for row in nodes})


async def _keep_page(tx: Tx, ns: Namespace, batch: _Batch, barred: set[str]) -> Received:
    turns = sorted(str(r.key) for _, r in batch.nodes if r.label == "DeviceTurn")
    own = set((await tx.run("portability/sync/own_turns", ns=ns, ids=turns))[0]["ids"]) \
        if turns else set()
    done = await _merge(tx, ns, _as_own_turns(batch, own), barred, authority="sent")
    await plan_writer.settle_orphaned(tx, ns, datetime.now(UTC))
    return Received(nodes=done.nodes, relationships=done.rels, forgotten=len(barred))


def _as_own_turns(batch: _Batch, own: set[str]) -> _Batch:
    """References to this device's own turns made the turns again: the episode is the
    evidence here, not a reference to it."""
    if not own:
        return batch
    rels = []
    for number, rel in batch.rels:
        if rel.end[0] == "DeviceTurn" and rel.end[1] in own and rel.type in OWN_LINKS:
            rel = RelRecord(OWN_LINKS[rel.type], rel.start, ("Episode", rel.end[1]), rel.props)
        rels.append((number, rel))
    return _Batch([(n, r) for n, r in batch.nodes
                   if not (r.label == "DeviceTurn" and r.key in own)], rels, batch.renamed)


@dataclass
class _Merged:
    keys: list[tuple[str, str]]  # the nodes sent, as the receiver names them
    nodes: int
    rels: int


async def _merge(tx: Tx, ns: Namespace, batch: _Batch, barred: set[str],
                 authority: str) -> _Merged:
    """Write a batch as an import writes a chunk, under the rules of a sync: the receiver's
    own entity or value stands for one it holds by name; an ending is never undone; and
    while both sides believe a fact, ``authority`` says whose status counts ("held": the
    receiver's, on the shared side, which resolves; "sent": the sender's, on a device,
    which takes the shared side's word)."""
    sent: dict[str, list[str | None]] = defaultdict(list)
    for _, r in batch.nodes:
        sent[r.label].append(r.key)
    settled = (await tx.run("portability/sync/settled", ns=ns, facts=sent["Fact"],
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
        await tx.run("portability/merge_nodes", ns=ns, nodes=rows)
    if rels:
        made = await tx.run("portability/merge_relationships", ns=ns, rels=rels)
        check_relationships(rels, {row["line"] for row in made})
        await supersession.refuse_cycles(tx, ns, [
            {"winner": r["from_key"], "loser": r["to_key"], "line": r["line"]}
            for r in rels if r["type"] == "SUPERSEDES"])
        await identities_again(tx, ns, rels)
    fact_ids = sorted({r["key"] for r in rows if r["label"] == "Fact"}
                      | {r["props"]["fact_id"] for r in rels
                         if isinstance(r["props"].get("fact_id"), str)})
    if fact_ids:
        await tx.run("portability/align_edges", ns=ns, ids=fact_ids)
    # An entity held under another id is still one whose edges this batch may have moved.
    keys = [(r.label, str(batch.key(r.label, r.key))) for _, r in batch.nodes
            if r.key is not None]
    return _Merged(keys, len(rows), len(rels))


def _node_row(number: int, record: NodeRecord, key: str | None, held: bool) -> Row:
    props = dict(record.props)
    if record.label == "Fact" and held and props.get("retracted_at") is None:
        props.pop("status", None)
    return {"line": number, "label": record.label, "key": key, "props": props,
            "embed": record.label in EMBEDDED}


def _rel_row(number: int, record: RelRecord, batch: _Batch) -> Row:
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


async def _stamp(tx: Tx, ns: Namespace, device: str, sent: list[tuple[str, str]],
                 resolved: set[tuple[str, str]]) -> Received:
    """Stamp the nodes whose fingerprint moved with the next sequence number: with the
    pushing device when its push left them as sent (its own pull skips them), else with
    none (every device pulls what the shared side changed itself)."""
    keys = sorted(set(sent) | resolved)
    rows = await tx.run("portability/sync/fingerprints", ns=ns,
                        nodes=[{"label": label, "key": key} for label, key in keys])
    moved = [(row, fingerprint(row)) for row in rows]
    moved = [(row, print_) for row, print_ in moved if print_ != row["hash"]]
    seq = int((await tx.run("portability/sync/state", ns=ns, peer=SHARED))[0]["seq"])
    if not moved:
        return Received(sequence=seq)
    seq += 1
    await tx.run("portability/sync/stamp", ns=ns, seq=seq, nodes=[
        {"label": row["label"], "key": row["key"], "hash": print_,
         "device": None if (row["label"], row["key"]) in resolved else device}
        for row, print_ in moved])
    await tx.run("portability/sync/advance", ns=ns, peer=SHARED, seq=seq, label=_DONE, key="",
                 now=datetime.now(UTC))
    return Received(sequence=seq, changed=len(moved))


def fingerprint(row: Row) -> str:
    """A node's properties and outgoing relationships, as a digest: what a push compares to
    tell a change from a repeat."""
    props = {k: encode(v) for k, v in row["props"].items() if k not in IGNORED and v is not None}
    rels = sorted(json.dumps([r["type"], sorted(r["to"]), r["key"],
                              {k: encode(v) for k, v in r["props"].items() if v is not None}],
                             sort_keys=True) for r in row["rels"])
    text = json.dumps([row["label"], props, rels], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


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
    if not 1 <= first <= MAX_PAGE:
        raise InvalidInput(f"first must be 1-{MAX_PAGE}", field="first")
    seq, label, key = parse_cursor(after) if after else (0, _DONE, "")
    # Two reads, not one snapshot: a push between them stamps past ``upto`` and is left to
    # the next pull; a node it re-stamps moves past the window and comes then, whole.
    upto = int((await db.read("portability/sync/state", ns=ns, peer=SHARED))[0]["seq"])
    rows = await db.read("portability/sync/changed", ns=ns, device=device, after_seq=seq,
                         after_label=label, after_key=key, upto=upto, limit=first,
                         labels=list(SYNCED))
    has_more = len(rows) == first
    last = rows[-1] if rows and has_more else None
    cursor = cursor_of(int(last["seq"]), last["label"], _identity(last["label"],
                                                                    last["props"])) \
        if last else cursor_of(upto, _DONE, "")
    erased = await db.read("portability/sync/erased", ns=ns, after_seq=seq, upto=upto,
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


def cursor_of(seq: int, label: str, key: str | None) -> str:
    text = json.dumps([seq, label, key or ""], separators=(",", ":"))
    return base64.urlsafe_b64encode(text.encode()).decode()


def parse_cursor(cursor: str) -> tuple[int, str, str]:
    try:
        seq, label, key = json.loads(base64.urlsafe_b64decode(cursor.encode()))
        if isinstance(seq, int) and isinstance(label, str) and isinstance(key, str):
            return seq, label, key
    except (ValueError, TypeError, binascii.Error):
        pass
    raise InvalidInput("not a sync cursor", field="after")

