"""An import's first pass: the whole file checked before anything is written, so a bad file
writes nothing (``importing`` writes in a second pass over the same lines).

Each node is read the way the service reads it (its package's own ``from_row``: the same
enums and types) and held to the API's own rules for it (``episodes.validate``, the
policies' ``check``…), so nothing is imported that the API would refuse or that a read would
fail on. Relationships must join nodes the file names before them or the namespace holds;
no id may be another namespace's; the end record's counts and digest (when it has one) must
be the file's. Held meanwhile: a 64-bit hash per node of the file (about 70 MB a million
nodes, in a Python set).

It also finds the facts the import must leave alone (``barred``): those the namespace holds
forgotten (a user's ``forgetFact``), unless the file has them forgotten too. Like an
assertion from any source but the user (outcome ``FORGOTTEN``), an import never brings a
forgotten statement back, nor its edge: the two stay as forgetting left them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import fields, is_dataclass
from datetime import datetime
from functools import cache, partial
from types import UnionType
from typing import Any, Union, get_args, get_origin, get_type_hints

from graphmem.archive.tiering import owned
from graphmem.core.errors import DecryptionFailed, InvalidInput
from graphmem.core.identifiers import normalise_predicate, relationship_type
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database, Row
from graphmem.episodes import store as episodes
from graphmem.facts import policies, supersession
from graphmem.facts.conflicts import Conflict
from graphmem.facts.entities import Entity
from graphmem.facts.model import Fact
from graphmem.facts.store import check_confidence
from graphmem.governance import pruning, retention
from graphmem.governance.audit import AuditEvent
from graphmem.governance.ephemeral import SessionState
from graphmem.jobs.switches import Switches
from graphmem.portability.format import (
    GLOBAL_IDS,
    LABELS,
    Digest,
    EndRecord,
    NodeRecord,
    RelRecord,
    load,
    record,
)
from graphmem.summaries import store as summaries

BATCH = 1_000  # lookups per statement
_ERRORS = (KeyError, TypeError, ValueError, AttributeError, OverflowError, DecryptionFailed)

# How the service reads a node of each label (labels without one hold only plain values;
# an episode is read with the keys of the database it goes into: FileCheck._typed).
READERS: dict[str, Callable[[Row], Any]] = {
    "Session": SessionState.from_row,
    "Entity": Entity.from_row,
    "Fact": Fact.from_row,
    "Summary": summaries.Summary.from_row,
    "Conflict": lambda row: Conflict.from_row(row, []),
    "PredicatePolicy": policies.from_row,
    "RetentionPolicy": retention.Policy.from_row,
    "PruningPolicy": pruning.Policy.from_row,
    "PipelineSwitches": Switches.from_row,
    "AuditEvent": AuditEvent.from_row,
}


def _predicate(predicate: str) -> None:
    """A predicate as the API stores it: normalised, and a valid relationship type."""
    if normalise_predicate(predicate) != predicate:
        raise InvalidInput("predicate is not in its normal form", field="predicate")
    relationship_type(predicate)


def _fact(fact: Fact) -> None:
    check_confidence(fact.confidence)
    _predicate(fact.predicate)


# The API's rules for what it writes, per label, on what the reader made.
RULES: dict[str, Callable[[Any], None]] = {
    "Fact": _fact,
    "Summary": lambda summary: summaries.check(summary.text, summary.level, summary.scope),
    "PredicatePolicy": lambda policy: _predicate(policy.predicate),
    "RetentionPolicy": retention.check,
    "PruningPolicy": pruning.check,
}


class FileCheck:
    """The first pass over one file's lines (after the header), into ``target``."""

    def __init__(self, db: Database, source: Namespace, target: Namespace,
                 remaps: Callable[[str, str | None], str | None],
                 readable: Callable[[Row, int], Row],
                 max_chars: int = episodes.MAX_CONTENT_CHARS) -> None:
        self.db, self.source, self.target = db, source, target
        self.key_in_target = remaps  # (label, key in the file) -> key in the target
        self.readable = readable  # (an episode's props, line) -> as the service will read them
        self.max_chars = max_chars
        self.counts = [0, 0]  # nodes, relationships
        self.digest = Digest()
        self.ended: EndRecord | None = None
        self._nodes: set[int] = set()
        self._absent: list[Row] = []  # endpoints not in the file: in the namespace?
        self._unique: list[Row] = []  # service-wide ids: another namespace's?
        self._facts: list[Row] = []  # facts not forgotten in the file: in the namespace?
        self.barred: set[str] = set()  # facts the namespace holds forgotten: left alone
        self._supersedes: list[Row] = []  # the file's SUPERSEDES links: no cycle among them
        self._sessions: list[Row] = []  # the sessions episodes are in: closed here?

    async def line(self, text: str, number: int) -> None:
        raw = load(text, number)
        found = record(raw, number)
        if self.ended is not None:
            raise InvalidInput(f"line {number}: a record after the end record", line=number)
        if isinstance(found, EndRecord):
            self.ended = found
            return
        try:
            self.digest.add(raw)
        except UnicodeEncodeError:  # "\ud800" in the JSON, or bytes that were not UTF-8
            raise InvalidInput(f"line {number}: a string there is not text (a lone surrogate, "
                               "or bytes that are not UTF-8)", line=number) from None
        if isinstance(found, NodeRecord):
            self.counts[0] += 1
            self._node(found, number)
        else:
            self.counts[1] += 1
            self._rel(found, number)
        if max(len(self._absent), len(self._unique), len(self._facts),
               len(self._sessions)) >= BATCH:
            await self._look_up()

    async def finish(self) -> None:
        """After the last line: what only the whole file (and the namespace) can show."""
        await self._look_up()
        if (cycle := supersession.first_cycle(self._supersedes)) is not None:
            raise supersession.refusal(cycle)  # (one with stored links: the write pass's)
        _check_end(self.ended, self.counts, self.digest)

    def _node(self, node: NodeRecord, number: int) -> None:
        key = self.key_in_target(node.label, node.key)
        self._nodes.add(_hashed(node.label, key))
        if node.label in GLOBAL_IDS and key is not None:
            self._unique.append({"line": number, "label": node.label, "key": key})
        session = node.props.get("session_id") if node.label in ("Episode", "Session") else None
        if isinstance(session, str):
            self._sessions.append({"line": number, "session_id": session})
        if node.label == "Fact" and "forgotten_at" not in node.props:
            self._facts.append({"key": key, "identity": node.props.get("identity")})
        # An episode as the service will read it (its errors name the line themselves).
        props = self.readable(node.props, number) if node.label == "Episode" else node.props
        try:
            self._typed(node.label, props, key)
        except InvalidInput as exc:
            raise InvalidInput(f"line {number}: {node.label} {exc.message}", line=number,
                               **{k: v for k, v in exc.details.items() if k != "line"}) \
                from None
        except _ERRORS as exc:
            raise InvalidInput(f"line {number}: not a valid {node.label} "
                               f"({_said(exc)})", line=number) from None

    def _typed(self, label: str, props: Row, key: str | None) -> None:
        if label == "Episode":
            self._archived_here(props)
        reader: Callable[[Row], Any] | None = partial(episodes.Episode.from_row, db=self.db) \
            if label == "Episode" else READERS.get(label)
        if reader is None:
            return
        identity = LABELS[label]
        value = reader({**props, "ns": self.target, **({identity: key} if identity else {})})
        _conforms(value)
        if label == "Episode":
            episodes.validate(value.as_new(), self.max_chars)
        elif label in RULES:
            RULES[label](value)
        if label == "RetentionPolicy" and value.key != key:
            raise InvalidInput(f"key must be {value.key!r}, its kind and sensitivity")

    def _archived_here(self, props: Row) -> None:
        key = props.get("archive_key")
        if key is not None and not owned(self.target, [key]):
            # An older export's pointer into the source's archive: erasing the copy would
            # have deleted the source's content.
            raise InvalidInput("is archived in another namespace's archive: export it again "
                               "(an export now carries archived content)")

    def _rel(self, rel: RelRecord, number: int) -> None:
        if rel.type == "SUPERSEDES":
            self._supersedes.append({"winner": self.key_in_target(*rel.start),
                                     "loser": self.key_in_target(*rel.end), "line": number})
        for label, key in (rel.start, rel.end):
            mapped = self.key_in_target(label, key)
            if _hashed(label, mapped) not in self._nodes:
                self._absent.append({"line": number, "label": label, "key": mapped,
                                     "type": rel.type})

    async def _look_up(self) -> None:
        if self._sessions:
            rows = await self.db.read("portability/closed_sessions", ns=self.target,
                                      sessions=self._sessions)
            if closed := sorted(rows[0]["lines"]):
                raise InvalidInput(
                    f"line {closed[0]}: its session was ephemeral and has been closed (erased) "
                    "in this namespace; an import may not bring an erased conversation back: "
                    "leave its lines out, or import into another namespace", line=closed[0])
            self._sessions = []
        if self._facts:
            rows = await self.db.read("portability/forgotten", ns=self.target,
                                      facts=self._facts)
            self.barred.update(rows[0]["keys"])
            self._facts = []
        if self._unique:
            rows = await self.db.read("portability/held_elsewhere", ns=self.target,
                                      nodes=self._unique)
            if held := sorted(rows[0]["lines"]):
                raise InvalidInput(
                    f"line {held[0]}: a node there has an id another namespace holds; import "
                    "into the namespace it was exported from, or into a new one (--into)",
                    line=held[0])
            self._unique = []
        if self._absent:
            rows = await self.db.read("portability/present", ns=self.target, ends=self._absent)
            present = set(rows[0]["lines"])
            missing = [end for end in self._absent if end["line"] not in present]
            if missing:
                end = min(missing, key=lambda row: row["line"])
                raise InvalidInput(
                    f"line {end['line']}: {end['type']} joins a node that is neither in the "
                    f"file before it nor in the namespace ({end['label']} {end['key']})",
                    line=end["line"])
            self._absent = []


def _check_end(ended: EndRecord | None, counts: list[int], digest: Digest) -> None:
    if ended is None:
        raise InvalidInput("the file ends without its end record: it was cut short (nothing "
                           "was imported)")
    if (ended.nodes, ended.relationships) != tuple(counts):
        raise InvalidInput(f"the end record counts {ended.nodes} nodes and "
                           f"{ended.relationships} relationships, the file holds {counts[0]} "
                           f"and {counts[1]}: it was altered (nothing was imported)")
    if ended.digest is not None and ended.digest != digest.value:
        raise InvalidInput("the end record's digest is not the file's: a line was altered "
                           "(nothing was imported)")


def _hashed(label: str, key: str | None) -> int:
    text = f"{label}\0{key}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest())


def _said(exc: BaseException) -> str:
    """An error's own words, short (a reader's error names a field or a value, not content)."""
    text = f"{type(exc).__name__}: {exc}" if not isinstance(exc, KeyError) \
        else f"{exc.args[0]!s} is missing"
    return text[:200]


def _conforms(value: Any) -> None:
    """Every field of what a reader made has the type its class declares (a reader passes
    most values through as stored)."""
    if not is_dataclass(value) or isinstance(value, type):
        return
    for name, hint in _hints(type(value)):
        if not _is(getattr(value, name), hint):
            raise InvalidInput(f"{name} is not a {_named(hint)}")


@cache
def _hints(cls: type) -> tuple[tuple[str, Any], ...]:
    """A dataclass's fields with their declared types (resolving them is slow: once a class)."""
    hints = get_type_hints(cls)
    return tuple((field.name, hints.get(field.name, Any)) for field in fields(cls))


def _is(value: Any, hint: Any) -> bool:
    origin, args = get_origin(hint), get_args(hint)
    if hint is Any:
        return True
    if origin in (Union, UnionType):
        return any(_is(value, arg) for arg in args)
    if hint is type(None):
        return value is None
    if origin in (list, tuple):
        items = args[:1] if origin is list or args[-1:] == (Ellipsis,) else args
        return isinstance(value, origin) and all(_is(item, items[0] if len(items) == 1
                                                     else Any) for item in value)
    if origin is dict:
        return isinstance(value, dict)
    if hint is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is datetime:
        return isinstance(value, datetime) and value.tzinfo is not None
    return not isinstance(hint, type) or isinstance(value, hint)


def _named(hint: Any) -> str:
    return getattr(hint, "__name__", None) or str(hint).replace("typing.", "")
