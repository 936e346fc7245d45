"""The export format: one namespace as JSON Lines, version 1 (docs/export-format.md).

    {"format": "graphmem-export", "version": 1, "namespace": "acme/u1", ...}   header
    {"node": "Episode", "key": "ep_…", "props": {...}}                         every node
    {"rel": "EVIDENCED_BY", "from": ["Fact", "f_…"], "to": ["Episode", "ep_…"], "props": {...}}
    {"end": {"nodes": 1234, "relationships": 5678, "digest": "…"}}            trailer

A node is named by its label and the value of that label's identity property (``LABELS``);
a relationship by its endpoints and type (and ``fact_id`` for the predicate edges, which
may run in parallel between two entities). Nodes come before the relationships that join
them, so a file imports in one pass. Values are JSON, except instants:
``{"$datetime": "2026-05-01T09:30:00+00:00"}``.

What is not in a file, because the service rebuilds it: embeddings (the worker recomputes
them), a turn's search copies of its neighbours (``context``, ``window``, and the ``NEXT``
chain of a session: rebuilt from the episodes' order), the namespace's Lucene token, when
answers last used a node (the service's own bookkeeping), and pipeline jobs (queue state,
not memory).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from graphmem.core.errors import InvalidInput

FORMAT = "graphmem-export"
VERSION = 1
# Every label a namespace holds, in file order, with the property that names a node of it
# (None: one node per namespace). A test fails when a statement creates a label not here.
LABELS: dict[str, str | None] = {
    "Actor": "key", "Session": "session_id", "Entity": "id", "Value": "id", "Alias": "key",
    "Episode": "id", "DeviceTurn": "id", "Fact": "id", "Summary": "id", "Conflict": "id",
    "EntityMerge": "id",
    "PredicatePolicy": "predicate", "RetentionPolicy": "key", "PruningPolicy": None,
    "PipelineSwitches": None,
    "AuditEvent": "id",
}
# Identities that are service-wide unique (``ep_…``): remapped when imported elsewhere.
GLOBAL_IDS = frozenset(label for label, prop in LABELS.items() if prop == "id")
# Properties that hold such an id, per label (or relationship type, "*": any).
REFERENCES: dict[str, frozenset[str]] = {
    "Conflict": frozenset({"kept"}),
    "EntityMerge": frozenset({"from_id", "into_id"}),
    "*": frozenset({"fact_id"}),
}
# A shared service's bookkeeping of what each push changed (portability/federation/stamps.py): which
# push, from which device, and the node's fingerprint then. Never exported, never synced.
SYNC_MARKS = frozenset({"sync_seq", "sync_device", "sync_hash"})
EMBEDDED = frozenset({"Episode", "Fact", "Summary", "Entity"})
SEALED = ("content", "metadata")  # episode fields that may be encrypted at rest
# Rebuilt by the service, never exported: see the module docstring.
DERIVED = frozenset({"ns", "ns_key", "embedding", "embed_lease_until", "context",
                     "context_actor", "window", "last_used_at", *SYNC_MARKS})
REBUILT_RELATIONSHIPS = frozenset({"NEXT"})
_REL_TYPE = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"
_PROPERTY = re.compile(r"[a-z_][a-z0-9_]{0,63}")
_SCALARS = (str, int, float, bool)
_INTEGERS = range(-2**63, 2**63)  # what Neo4j stores as an integer
_DIGEST_MODULUS = 2**256


def header(namespace: str, decrypted: bool, exported_at: datetime) -> dict[str, Any]:
    return {"format": FORMAT, "version": VERSION, "namespace": namespace,
            "exported_at": exported_at.isoformat(), "decrypted": decrypted}


def line(record: dict[str, Any]) -> str:
    """One record as its line of the file, newline included."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"


def node(label: str, key: str | None, props: dict[str, Any]) -> dict[str, Any]:
    """A node's record: its properties encoded, in name order, without the empty ones."""
    assert label in LABELS
    return {"node": label, "key": key,
            "props": {name: encode(value) for name, value in sorted(props.items())
                      if value is not None}}


def relationship(kind: str, start: tuple[str, str | None], end: tuple[str, str | None],
                 props: dict[str, Any] | None = None) -> dict[str, Any]:
    """A relationship's record, from ``start`` to ``end`` (each ``(label, key)``)."""
    return {"rel": kind, "from": list(start), "to": list(end),
            "props": {name: encode(value) for name, value in sorted((props or {}).items())
                      if value is not None}}


def encode(value: Any) -> Any:
    """A stored property value as JSON (instants tagged, so they come back as instants)."""
    if isinstance(value, _SCALARS):
        return value
    if isinstance(value, list):
        return [encode(item) for item in value]
    if isinstance(value, datetime):
        return {"$datetime": value.isoformat()}
    to_native = getattr(value, "to_native", None)  # neo4j.time.DateTime
    if callable(to_native) and isinstance(native := to_native(), datetime):
        return {"$datetime": native.isoformat()}
    raise TypeError(f"cannot export a {type(value).__name__} property")


def decode(value: Any, where: str, in_list: bool = False) -> Any:
    """A JSON value as a property value Neo4j can store; ``where`` names it in errors."""
    if isinstance(value, int) and not isinstance(value, bool) and value not in _INTEGERS:
        raise InvalidInput(f"{where}: an integer must fit in 64 bits")
    if isinstance(value, _SCALARS):
        return value
    if isinstance(value, list) and not in_list:  # Neo4j stores no list of lists
        items = [decode(item, where, in_list=True) for item in value]
        if len({type(item) for item in items}) > 1:
            raise InvalidInput(f"{where}: a list property must hold one type")
        return items
    if isinstance(value, dict) and set(value) == {"$datetime"}:
        return _instant(value["$datetime"], where)
    raise InvalidInput(f"{where}: properties are strings, numbers, booleans, instants or "
                       "lists of one of them")


def _instant(text: Any, where: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text)
        moment.astimezone(UTC)  # stored in UTC: 9999-12-31T23:59-14:00 has no such instant
    except (TypeError, ValueError, OverflowError):
        raise InvalidInput(f"{where}: {{\"$datetime\": …}} must be an ISO 8601 instant "
                           "between years 1 and 9999 in UTC") from None
    if moment.tzinfo is None:
        raise InvalidInput(f"{where}: an instant must carry a timezone")
    return moment


class Digest:
    """What the end record's ``digest`` holds: the sum (modulo 2**256) of every record's
    SHA-256 between header and end, each record as canonical JSON (keys sorted, no spaces).
    A sum, so it does not depend on the order of the lines (an export's order within a label
    is the database's), while a changed, lost or added line changes it."""

    def __init__(self) -> None:
        self._sum = 0

    def add(self, record: dict[str, Any]) -> None:
        canonical = json.dumps(record, sort_keys=True, ensure_ascii=False,
                               separators=(",", ":"))
        self._sum += int.from_bytes(hashlib.sha256(canonical.encode()).digest())
        self._sum %= _DIGEST_MODULUS

    @property
    def value(self) -> str:
        return f"sha256-sum:{self._sum:064x}"


def remapped(old: str, into: str) -> str:
    """The id a node gets in another namespace: derived, so a second import finds it."""
    prefix = old.split("_", 1)[0] + "_" if "_" in old else ""
    return prefix + hashlib.sha256(f"{into}\0{old}".encode()).hexdigest()[:32]


@dataclass(frozen=True)
class NodeRecord:
    label: str
    key: str | None
    props: dict[str, Any]


@dataclass(frozen=True)
class RelRecord:
    type: str
    start: tuple[str, str | None]
    end: tuple[str, str | None]
    props: dict[str, Any]


@dataclass(frozen=True)
class EndRecord:
    nodes: int
    relationships: int
    digest: str | None = None  # files written before it had one have none


Record = NodeRecord | RelRecord | EndRecord


def read_header(line: str) -> dict[str, Any]:
    try:
        head = json.loads(line)
    except ValueError:
        head = None
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise InvalidInput(f"line 1: not a graphmem export (the header names format {FORMAT!r})",
                           line=1)
    if head.get("version") != VERSION:
        raise InvalidInput(f"line 1: export format version {head.get('version')!r}; this "
                           f"graphmem reads version {VERSION}", line=1)
    if not isinstance(head.get("namespace"), str) or not isinstance(head.get("decrypted"), bool):
        raise InvalidInput("line 1: the header needs namespace and decrypted", line=1)
    return head


def parse(line: str, number: int) -> Record:
    """One line after the header, checked; errors name the line."""
    return record(load(line, number), number)


def load(line: str, number: int) -> dict[str, Any]:
    """One line's JSON object; errors name the line."""
    where = f"line {number}"
    try:
        raw = json.loads(line)
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"{where}: not JSON ({exc.msg})", line=number) from None
    except RecursionError:
        raise InvalidInput(f"{where}: nested too deeply", line=number) from None
    if not isinstance(raw, dict):
        raise InvalidInput(f"{where}: a record is a JSON object", line=number)
    return raw


def record(raw: dict[str, Any], number: int) -> Record:
    """One loaded line after the header, checked; errors name the line."""
    where = f"line {number}"
    try:
        if "node" in raw:
            return _node(raw, where)
        if "rel" in raw:
            return _rel(raw, where)
        if "end" in raw and isinstance(raw["end"], dict):
            end = raw["end"]
            digest = end.get("digest")
            if digest is not None and not isinstance(digest, str):
                raise TypeError(digest)
            return EndRecord(int(end["nodes"]), int(end["relationships"]), digest)
    except InvalidInput as exc:
        raise InvalidInput(exc.message, line=number) from None
    except (KeyError, TypeError, ValueError, OverflowError):
        pass
    raise InvalidInput(f"{where}: expected a node, rel or end record", line=number)


def _node(raw: dict[str, Any], where: str) -> NodeRecord:
    label = raw["node"]
    if label not in LABELS:
        raise InvalidInput(f"{where}: unknown label {str(label)[:40]!r}")
    key = _key(label, raw.get("key"), where)
    return NodeRecord(label, key, _props(raw.get("props", {}), where, LABELS[label]))


def _rel(raw: dict[str, Any], where: str) -> RelRecord:
    kind = raw["rel"]
    if not isinstance(kind, str) or not 0 < len(kind) <= 64 or kind.strip(_REL_TYPE) \
            or not kind[0].isalpha():
        raise InvalidInput(f"{where}: a relationship type is upper-case letters, digits and _")
    ends = []
    for side in ("from", "to"):
        end = raw[side]
        if not isinstance(end, list) or len(end) != 2 or end[0] not in LABELS:
            raise InvalidInput(f"{where}: {side} is [label, key] with a known label")
        ends.append((end[0], _key(end[0], end[1], where)))
    return RelRecord(kind, ends[0], ends[1], _props(raw.get("props", {}), where, None))


def _key(label: str, key: Any, where: str) -> str | None:
    if LABELS[label] is None:
        return None
    if not isinstance(key, str) or not 0 < len(key) <= 512:
        raise InvalidInput(f"{where}: a {label} needs its {LABELS[label]} as key")
    return key


def _props(props: Any, where: str, identity: str | None) -> dict[str, Any]:
    if not isinstance(props, dict):
        raise InvalidInput(f"{where}: props is an object")
    named = [name for name in props if not (isinstance(name, str) and _PROPERTY.fullmatch(name))]
    if named:
        raise InvalidInput(f"{where}: property names are lower-case words ({named[0][:40]!r})")
    bad = DERIVED.intersection(props) | ({identity} & set(props) if identity else set())
    if bad:
        raise InvalidInput(f"{where}: {sorted(bad)[0]} is not imported (the key names the node; "
                           "the service rebuilds the rest)")
    return {name: decode(value, f"{where}, {name}") for name, value in props.items()
            if value is not None}
