"""Import: an export file into a namespace (its own, or another one), in two passes.

The first pass (``validation``) reads the whole file and writes nothing: a bad line, an
altered or missing end record, a relationship to a node that is nowhere, an id another
namespace holds, each refuses the file before anything is written. The second reads the
lines again and writes them chunk by chunk, each chunk in one transaction with a checkpoint
of its last line, so an import interrupted then (a lost connection) resumes after the last
chunk. Nodes are found by their identity or made, so importing a file twice gives the same
graph. Into another namespace, service-wide ids are remapped (derived from the old id and
the target, so a second run finds what the first made). Lines are read twice rather than
held: memory stays bounded by a chunk (and a small hash per node in the first pass). A fact
the namespace holds forgotten stays as it is, with its edge and links (``validation``), and
every predicate edge takes its status and confidence from its statement node.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from neo4j.exceptions import ConstraintError

from graphmem.core.errors import GraphmemError, InvalidInput
from graphmem.core.namespaces import Namespace, parse_namespace
from graphmem.db.database import Database, Row, Tx
from graphmem.episodes.store import MAX_CONTENT_CHARS, Episode, relink
from graphmem.facts import supersession
from graphmem.facts.store import identity
from graphmem.portability.format import (
    EMBEDDED,
    GLOBAL_IDS,
    REFERENCES,
    SEALED,
    EndRecord,
    NodeRecord,
    RelRecord,
    parse,
    read_header,
    remapped,
)
from graphmem.portability.validation import FileCheck
from graphmem.security import encryption, namespace_keys

CHUNK = 1_000  # lines per transaction
# An export's lines, readable twice: a list, or what opens them again (a file's path).
Lines = Iterable[str] | Callable[[], Iterable[str]]


@dataclass
class ImportResult:
    namespace: Namespace
    nodes: int = 0
    relationships: int = 0
    resumed_after: int = 0  # lines a previous, interrupted run had committed
    forgotten: int = 0  # facts of the file the namespace holds forgotten: left as they are


@dataclass
class _Chunk:
    first_line: int
    nodes: list[Row] = field(default_factory=list)
    rels: list[Row] = field(default_factory=list)
    last_line: int = 0


async def import_lines(db: Database, lines: Lines, into: str | None = None,
                       chunk: int = CHUNK, progress: Callable[[int], None] | None = None,
                       max_chars: int = MAX_CONTENT_CHARS) -> ImportResult:
    """Import the lines of an export file (header first) into ``into`` or its own namespace:
    the whole file is checked first, and a bad one writes nothing."""
    head, numbered = _opened(lines)
    source = parse_namespace(head["namespace"])
    target = parse_namespace(into) if into else source
    run = _Run(source, target, head["decrypted"], _checkpoint_id(head, target), db)
    await namespace_keys.prepare(db, target)  # reading sealed content needs its key
    check = FileCheck(db, source, target, run.key_of, run.readable, max_chars)
    for number, line in numbered:
        if line.strip():
            await check.line(line, number)
    await check.finish()
    run.barred.update(check.barred)

    await namespace_keys.prepare(db, target, create=True)  # sealing below needs its key
    result = ImportResult(target, forgotten=len(run.barred))
    done = result.resumed_after = await _committed_line(db, run.checkpoint)
    pending = _Chunk(done + 1)
    for number, line in _opened(lines)[1]:
        if number <= done or not line.strip():
            continue  # committed by the interrupted run
        record = parse(line, number)
        if isinstance(record, EndRecord):
            break
        if run.leaves(record):
            continue
        run.add(pending, record, number)
        if len(pending.nodes) + len(pending.rels) >= chunk:
            await _commit(db, run, pending, result, progress)
            pending = _Chunk(number + 1)
    await _commit(db, run, pending, result, progress)
    await db.write("portability/finish_import", id=run.checkpoint)
    return result


def _opened(lines: Lines) -> tuple[dict[str, Any], Iterator[tuple[int, str]]]:
    """The header, and the numbered lines after it, read from the start."""
    if isinstance(lines, Iterator):
        raise TypeError("an import reads its lines twice: give a list, or what opens them")
    numbered = enumerate(lines() if callable(lines) else lines, start=1)
    first = next(numbered, None)
    if first is None:
        raise InvalidInput("the file is empty", line=1)
    return read_header(first[1]), numbered


@dataclass(frozen=True)
class _Run:
    source: Namespace
    target: Namespace
    decrypted: bool
    checkpoint: str
    db: Database  # its keyring seals and opens content
    barred: set[str] = field(default_factory=set)  # forgotten facts (target keys): left alone

    @property
    def remaps(self) -> bool:
        return self.source != self.target

    def leaves(self, record: NodeRecord | RelRecord) -> bool:
        """Whether the record is of a fact the namespace holds forgotten: its node, its edge
        (``fact_id``) or a link of its statement node."""
        if not self.barred:
            return False
        if isinstance(record, NodeRecord):
            return record.label == "Fact" and self.key_of("Fact", record.key) in self.barred
        fact_ids = [self.key_of(label, key) for label, key in (record.start, record.end)
                    if label == "Fact"]
        if isinstance(record.props.get("fact_id"), str):
            fact_ids.append(self.key_of("Fact", record.props["fact_id"]))
        return any(fact_id in self.barred for fact_id in fact_ids)

    def add(self, chunk: _Chunk, record: NodeRecord | RelRecord, number: int) -> None:
        chunk.last_line = number
        if isinstance(record, NodeRecord):
            chunk.nodes.append(self._node(record, number))
        else:
            chunk.rels.append(self._rel(record, number))

    def key_of(self, label: str, key: str | None) -> str | None:
        """A node's key in the target."""
        return remapped(key, self.target) if key and self.remaps and label in GLOBAL_IDS else key

    def _references(self, kind: str, props: dict[str, Any]) -> dict[str, Any]:
        if not self.remaps:
            return props
        names = REFERENCES.get(kind, frozenset()) | REFERENCES["*"]
        return {name: remapped(value, self.target) if name in names and isinstance(value, str)
                else value for name, value in props.items()}

    def _node(self, record: NodeRecord, number: int) -> Row:
        props = self._references(record.label, record.props)
        key = self.key_of(record.label, record.key)
        if record.label == "Episode":
            props = self._episode(props, key, number)
        return {"line": number, "label": record.label, "key": key, "props": props,
                "embed": record.label in EMBEDDED and "redacted_at" not in props}

    def readable(self, props: dict[str, Any], number: int) -> dict[str, Any]:
        """An episode's fields as the service will read them: plaintext escaped as stored,
        sealed values only where they open here (the first pass reads episodes this way)."""
        props = {**props, **self._unsealed(props)}
        sealed = [name for name in SEALED if encryption.is_sealed(props.get(name))]
        if sealed and self.remaps:
            raise InvalidInput(
                f"line {number}: {sealed[0]} is encrypted and bound to namespace "
                f"{self.source!r}: import into it, or export with --decrypt", line=number)
        if sealed and encryption.active(self.db) is not None:
            self._check_opens(props, sealed, number)
        return props

    def _episode(self, props: dict[str, Any], key: str | None, number: int) -> dict[str, Any]:
        props = self.readable(props, number)
        sealed = any(encryption.is_sealed(props.get(name)) for name in SEALED)
        if sealed or encryption.active(self.db) is None or "redacted_at" in props:
            return props  # as stored (a redacted episode keeps its original's hash)
        try:
            plain = Episode.from_row({**props, "id": key, "ns": self.target}, self.db).as_new()
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidInput(f"line {number}: not an episode ({exc})", line=number) from None
        return {**props, **{name: encryption.seal(self.db, encryption.plain(str(props[name])),
                                                  self.target)
                            for name in SEALED if name in props},
                "content_hash": plain.content_hash(encryption.active(self.db))}

    def _unsealed(self, props: dict[str, Any]) -> dict[str, Any]:
        """The fields that are not sealed, escaped as stored: a decrypted file (or another
        system's messages) holds plaintext only, so even a value that looks sealed is text a
        user wrote; an export's own values are sealed or already escaped (an older export's
        unescaped ``enc:`` text is escaped here)."""
        unsealed = {}
        for name in SEALED:
            value = props.get(name)
            if isinstance(value, str) and self.decrypted:
                unsealed[name] = encryption.escape(value)
            elif isinstance(value, str) and not encryption.is_sealed(value):
                unsealed[name] = encryption.escape(encryption.plain(value))
        return unsealed

    def _check_opens(self, props: dict[str, Any], sealed: list[str], number: int) -> None:
        """A sealed value is taken only when it opens here: one that does not would fail
        every read of it."""
        for name in sealed:
            try:
                encryption.reveal(self.db, props[name], self.target)
            except GraphmemError:
                raise InvalidInput(
                    f"line {number}: {name} is encrypted under a key this service does not "
                    "hold for the namespace", line=number) from None

    def _rel(self, record: RelRecord, number: int) -> Row:
        (start, start_key), (end, end_key) = record.start, record.end
        return {"line": number, "type": record.type, "from_label": start,
                "from_key": self.key_of(start, start_key), "to_label": end,
                "to_key": self.key_of(end, end_key),
                "props": self._references(record.type, record.props)}


async def _commit(db: Database, run: _Run, chunk: _Chunk, result: ImportResult,
                  progress: Callable[[int], None] | None) -> None:
    if not chunk.nodes and not chunk.rels:
        return

    async def write(tx: Tx) -> None:
        if chunk.nodes:
            await merge_nodes(tx, run.target, chunk.nodes)
            await relink(tx, run.target, [  # the chain, and each turn's neighbours' copies
                {"session_id": n["props"].get("session_id"),
                 "occurred_at": n["props"].get("occurred_at")}
                for n in chunk.nodes if n["label"] == "Episode"])
        if chunk.rels:
            await merge_relationships(tx, run.target, chunk.rels)
            await supersession.refuse_cycles(tx, run.target, [  # with what is stored too
                {"winner": r["from_key"], "loser": r["to_key"], "line": r["line"]}
                for r in chunk.rels if r["type"] == "SUPERSEDES"])
            if run.remaps:
                await identities_again(tx, run.target, chunk.rels)
        facts = sorted({n["key"] for n in chunk.nodes if n["label"] == "Fact"}
                       | {r["props"]["fact_id"] for r in chunk.rels
                          if isinstance(r["props"].get("fact_id"), str)})
        if facts:  # whichever came first in the file, node or edge
            await align_edges(tx, run.target, facts)
        await tx.run("portability/checkpoint", id=run.checkpoint, line=chunk.last_line)

    try:
        await db.transaction(write)
    except ConstraintError:
        raise InvalidInput(
            f"lines {chunk.first_line}-{chunk.last_line}: a node there has an id another "
            "namespace holds; import into the namespace it was exported from, or into a new "
            "one (--into)", line=chunk.first_line) from None
    result.nodes += len(chunk.nodes)
    result.relationships += len(chunk.rels)
    if progress is not None:
        progress(chunk.last_line - chunk.first_line + 1)


async def merge_nodes(tx: Tx, ns: Namespace, rows: list[Row]) -> None:
    """Nodes ({line, label, key, props, embed}) found by their identity or made, and given
    their properties: an import's chunk, a sync's batch."""
    await tx.run("portability/merge_nodes", ns=ns, nodes=rows)


async def merge_relationships(tx: Tx, ns: Namespace, rels: list[Row]) -> None:
    """Relationships between nodes already written; InvalidInput naming the first line whose
    ends are neither written nor in the namespace."""
    made = await tx.run("portability/merge_relationships", ns=ns, rels=rels)
    check_relationships(rels, {row["line"] for row in made})


async def align_edges(tx: Tx, ns: Namespace, fact_ids: list[str]) -> None:
    """Each fact's edge made to agree with its statement node, whichever was written first."""
    await tx.run("portability/align_edges", ns=ns, ids=fact_ids)


async def identities_again(tx: Tx, ns: Namespace, rels: list[Row]) -> None:
    """The statement identity of each fact whose ends this chunk joined, made from its ends
    in ``ns`` (the file's was made from the source's ids; a sync's from a device's)."""
    await identities_of(tx, ns, sorted({
        rel["from_key"] for rel in rels
        if rel["from_label"] == "Fact" and rel["type"] in ("SUBJECT", "OBJECT")}))


async def identities_of(tx: Tx, ns: Namespace, ids: list[str]) -> None:
    """These facts' statement identities, made from their ends as ``ns`` holds them (a sync
    may send a fact without its ends: the copy's identity was made from its sender's ids)."""
    if not ids:
        return
    ends = await tx.run("portability/fact_ends", ns=ns, ids=ids)
    await tx.run("portability/set_identities", ns=ns, rows=[
        {"id": row["id"], "identity": identity(row["subject_id"], row["predicate"],
                                               row["object_id"])} for row in ends])


def check_relationships(rels: list[Row], made: set[int]) -> None:
    for rel in rels:
        if rel["line"] not in made:
            raise InvalidInput(
                f"line {rel['line']}: {rel['type']} joins a node that is neither in the file "
                f"before it nor in the namespace ({rel['from_label']} {rel['from_key']} -> "
                f"{rel['to_label']} {rel['to_key']})", line=rel["line"])


def _checkpoint_id(head: dict[str, Any], target: Namespace) -> str:
    """One checkpoint per (export, target): no namespace name is stored in it."""
    seed = f"{head['namespace']}\0{head.get('exported_at')}\0{target}"
    return "import_" + hashlib.sha256(seed.encode()).hexdigest()[:32]


async def _committed_line(db: Database, checkpoint: str) -> int:
    rows = await db.read("portability/checkpoint_line", id=checkpoint)
    return int(rows[0]["line"]) if rows else 0
