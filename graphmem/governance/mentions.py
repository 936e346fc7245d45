"""An entity's mentions in turns: where its name or an alias is said, as a whole word, in an
episode's text — stored plain, sealed (encryption) or moved to the archive — and that text
with each mention replaced, the rest of the turn kept.

A mention is a whole word, case-insensitive: for an entity named "Biscuit", "biscuit",
"Biscuit's" and "BISCUIT!" are mentions; "Biscuits" and "biscuitware" are other words and
are not (an alias takes them, when they mean it too). Names shorter than two characters
are not looked for: "I" or "A" would be every other word.

Candidates are read by a case-insensitive substring filter over the namespace's turns in
Neo4j, plus every sealed and every archived turn, whose text Neo4j cannot see (nor can the
fulltext index, so it is no shortcut here); each is then checked here by the exact word
match, on its plaintext.
"""

from __future__ import annotations

import enum
import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graphmem.archive import stores as archive_stores
from graphmem.archive import tiering
from graphmem.core.errors import ArchiveMissing, DecryptionFailed
from graphmem.core.namespaces import Namespace
from graphmem.core.timeutil import parse_stored_datetime
from graphmem.db.database import Database, Row
from graphmem.episodes.store import Episode
from graphmem.security import encryption

PLACEHOLDER = "[redacted]"
MIN_NAME = 2
PAGE = 500  # candidate turns read at once
EXCERPT = 60  # characters shown either side of the first mention
TEXTS = ("content", "metadata", "context", "window")  # where a turn's text is stored
OWN = ("content", "metadata")  # what the turn itself says; the rest are its neighbours'
# A graph turn's window is made again from its neighbours' content by the session's relink,
# and it names the speakers ("Dana: …"): a speaker is not a mention. An archived turn's
# object keeps the window it had, so there it is read too.
IN_GRAPH = ("content", "metadata", "context")

Reads = Callable[..., Awaitable[list[Row]]]  # ``db.read`` or ``tx.run``
# Archived turns' texts read back, by archive key (an object's key is its content's address, so
# it never goes stale): read before an erasure's transaction, so that it does not wait on the
# archive store.
Objects = dict[str, Row]


class MentionScope(enum.Enum):
    """What a subject's erasure does to the turns that mention it."""

    KEEP = "keep"  # they stay as they are (the user's record)
    REDACT = "redact"  # each mention is replaced, the rest of the turn stays
    ERASE = "erase"  # the turns are erased, with the episode cascade


@dataclass(frozen=True)
class Mention:
    """A turn whose stored text names the entity: ``own`` when the turn says it (content or
    metadata), else only the copy of a neighbour it keeps for search (context, window)."""

    id: str
    kind: str
    occurred_at: datetime
    session_id: str | None
    excerpt: str | None  # around its first mention; None: it names no one (found by id)
    opening: str  # the start of its content
    own: bool
    row: Row  # as stored, an archived turn's moved texts read back from its object


def pattern(names: list[str]) -> re.Pattern[str] | None:
    """The whole-word, case-insensitive match of any of the names (the longest first)."""
    wanted = sorted({n.strip() for n in names if len(n.strip()) >= MIN_NAME},
                    key=lambda n: (-len(n), n))
    if not wanted:
        return None
    return re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, wanted)) + r")(?!\w)",
                      re.IGNORECASE)


async def find(db: Database, read: Reads, ns: Namespace, names: list[str],
               objects: Objects | None = None) -> list[Mention]:
    """Every turn of the namespace whose text (its own, or a neighbour's copy) names it;
    archived ones read back through ``objects`` (filled as they are read). ``db`` holds the
    keys and archive store; ``read`` is its ``read`` or a running transaction's ``run``."""
    matcher = pattern(names)
    if matcher is None:
        return []
    lowered = sorted({n.strip().lower() for n in names if len(n.strip()) >= MIN_NAME})
    found: list[Mention] = []
    after = ""
    while True:
        rows = await read("governance/erasure/mention_candidates", ns=ns, names=lowered,
                          after=after, limit=PAGE)
        for row in rows:
            mention = await _mention(db, ns, row["episode"], matcher, objects)
            if mention is not None:
                found.append(mention)
        if len(rows) < PAGE:
            return sorted(found, key=lambda m: (m.occurred_at, m.id))
        after = rows[-1]["episode"]["id"]


async def _mention(db: Database, ns: Namespace, row: Row, matcher: re.Pattern[str],
                   objects: Objects | None) -> Mention | None:
    turn = await described(db, ns, row, matcher, objects)
    return turn if turn.excerpt is not None else None


async def described(db: Database, ns: Namespace, row: Row, matcher: re.Pattern[str] | None,
                    objects: Objects | None = None) -> Mention:
    """A turn as a subject erasure lists it, its text read back from the archive when it is
    there; ``excerpt`` is None when no text of it names the entity."""
    row = await _read_back(db, ns, row, {} if objects is None else objects)
    read = TEXTS if row.get("archived_at") is not None else IN_GRAPH
    texts = {name: _plain(db, row.get(name), ns) for name in read}
    hits = [name for name, text in texts.items()
            if text and matcher is not None and matcher.search(text)]
    shown = next((texts[name] for name in read if name in hits), None)
    return Mention(id=row["id"], kind=row["kind"],
                   occurred_at=parse_stored_datetime(row["occurred_at"]),
                   session_id=row.get("session_id"),
                   excerpt=excerpt(shown, matcher) if shown and matcher else None,
                   opening=excerpt(texts["content"] or "", None),
                   own=any(name in OWN for name in hits), row=row)


async def _read_back(db: Database, ns: Namespace, row: Row, objects: Objects) -> Row:
    """An archived turn with its moved texts back from its object (its content is there);
    without a store, or with an object gone, as it is in the graph."""
    store, key = archive_stores.active(db), row.get("archive_key")
    if row.get("archived_at") is None or store is None or not isinstance(key, str):
        return row
    if key not in objects:
        try:
            objects[key] = await tiering.read_back(db, store, ns, row)
        except (ArchiveMissing, OSError):
            return row
    return {**row, **{name: objects[key].get(name) for name in tiering.MOVED}}


def _plain(db: Database, stored: Any, ns: Namespace) -> str | None:
    """Stored text as plaintext; sealed under a key this process lacks (or one destroyed):
    None, as nobody can read it."""
    if not isinstance(stored, str):
        return None
    try:
        return encryption.reveal(db, stored, ns)
    except DecryptionFailed:
        return None


def excerpt(text: str, matcher: re.Pattern[str] | None) -> str:
    """A short piece of the text around its first mention (or its start), on one line."""
    hit = matcher.search(text) if matcher else None
    start, end = (hit.start(), hit.end()) if hit else (0, 0)
    piece = text[max(0, start - EXCERPT):end + EXCERPT]
    piece = ("…" if start > EXCERPT else "") + piece + ("…" if end + EXCERPT < len(text) else "")
    return " ".join(piece.split())


def redacted(db: Database, mention: Mention, matcher: re.Pattern[str], ns: Namespace) -> Row:
    """The turn's stored texts with each mention replaced (sealed again where they were
    sealed), and its content hash made again from what it now says."""
    row = mention.row
    changed: Row = {"id": mention.id, "context_actor": row.get("context_actor")}
    for name in TEXTS:
        stored = row.get(name)
        text = _plain(db, stored, ns)
        if text is None:
            changed[name] = stored if name in OWN else None
            continue
        new = _redact_json(text, matcher) if name == "metadata" else matcher.sub(PLACEHOLDER,
                                                                                text)
        changed[name] = (encryption.seal(db, new, ns) if encryption.is_sealed(stored)
                         else encryption.escape(new))
    episode = Episode.from_row({**row, "content": changed["content"],
                                "metadata": changed["metadata"]}, db)
    changed["content_hash"] = episode.as_new().content_hash(encryption.active(db),
                                                            row["content_hash"])
    return changed


def restored(mention: Mention) -> Row:
    """An archived turn that only keeps a neighbour's copy of a mention, back in the graph as
    it was (the session's relink then rewrites that copy from the redacted neighbour)."""
    row = mention.row
    return {"id": mention.id, "content_hash": row["content_hash"],
            **{name: row.get(name) for name in (*TEXTS, "context_actor")}}


def _redact_json(text: str, matcher: re.Pattern[str]) -> str:
    """Metadata is JSON: mentions go from its keys and string values, the shape stays."""
    try:
        value = json.loads(text)
    except ValueError:
        return matcher.sub(PLACEHOLDER, text)
    return json.dumps(_redact_value(value, matcher), sort_keys=True, ensure_ascii=False)


def _redact_value(value: Any, matcher: re.Pattern[str]) -> Any:
    if isinstance(value, str):
        return matcher.sub(PLACEHOLDER, value)
    if isinstance(value, list):
        return [_redact_value(item, matcher) for item in value]
    if isinstance(value, dict):
        return {matcher.sub(PLACEHOLDER, k): _redact_value(v, matcher) for k, v in value.items()}
    return value
