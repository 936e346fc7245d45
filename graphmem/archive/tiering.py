"""Archiving episodes' content out of the graph, and bringing it back.

An archived episode keeps its node: id, time, session position, content hash, provenance
links (the facts it evidences, the summaries covering it) and, when the policy keeps it
findable, its embedding, so vector search, facts, summaries and provenance still reach it.
Its content, metadata and the neighbouring turns' copies kept for search move to the archive
store as one compressed, content-addressed object (as stored: sealed when encryption is on),
written durably before the graph lets go of them. ``rehydrate`` brings them back, checked
against the object's address and the episode's content hash, then deletes the object.
Erasure deletes the objects of the episodes it erases (``governance/erasure``). A namespace
only ever deletes objects under its own prefix: an episode pointing at another namespace's
object (an old import) never costs that namespace its content.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import re
import zlib
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from graphmem.archive.stores import ArchiveStore, key_for
from graphmem.core.errors import ArchiveMissing
from graphmem.core.namespaces import Namespace
from graphmem.core.timeutil import to_native
from graphmem.db.database import Database, Row
from graphmem.episodes.store import Episode, by_ids, resolve_refs
from graphmem.security import encryption

PLACEHOLDER = "[archived]"
MOVED = ("content", "metadata", "context", "context_actor", "window")
PARALLEL = 16  # objects written or read at once


@dataclass(frozen=True)
class Archived:
    episodes: int
    bytes_written: int  # compressed, in the archive store
    bytes_moved: int  # the text that left the graph


def namespace_prefix(ns: Namespace) -> str:
    """Where a namespace's objects live: its name hashed, so a listing names no tenant."""
    return hashlib.sha256(f"graphmem-archive\0{ns}".encode()).hexdigest()[:32]


async def archive_episodes(db: Database, store: ArchiveStore, ns: Namespace, ids: list[str],
                           keep_index: bool = True) -> Archived:
    """Move these episodes' content to the archive (each written before the graph changes)."""
    rows = await db.read("archive/load", ns=ns, ids=ids, keep_index=keep_index)
    prefix = namespace_prefix(ns)
    keyed = [(row, key_for(prefix, data), data)
             for row, data in ((row, _packed(ns, row)) for row in rows)]
    semaphore = asyncio.Semaphore(PARALLEL)

    async def put(key: str, data: bytes) -> None:
        async with semaphore:
            await store.put(key, data)

    await asyncio.gather(*(put(key, data) for _, key, data in keyed))
    done = await db.write(
        "archive/mark", ns=ns, placeholder=PLACEHOLDER, now=to_native(datetime.now(UTC)),
        keep_index=keep_index,
        rows=[{"id": row["id"], "content_hash": row["content_hash"], "key": key,
               "bytes": len(data)} for row, key, data in keyed])
    archived = set(done[0]["archived"])
    # Objects of episodes changed meanwhile (redacted, erased) are not needed: gone at once.
    await store.delete([key for row, key, _ in keyed if row["id"] not in archived])
    return Archived(len(archived), sum(len(d) for r, _, d in keyed if r["id"] in archived),
                    sum(_moved_bytes(r) for r, _, _ in keyed if r["id"] in archived))


async def rehydrate(db: Database, store: ArchiveStore, ns: Namespace,
                    refs: list[str]) -> list[Episode]:
    """Bring archived episodes' content back (ids or externalIds); others are returned as
    they are. Each object is checked against its address, its namespace and episode, and the
    episode's content hash before the graph takes it back."""
    found = await resolve_refs(db, ns, refs, "ids")
    ids = sorted({e.id for e in found.values()})
    archived = await db.read("archive/archived", ns=ns, ids=ids)
    semaphore = asyncio.Semaphore(PARALLEL)

    async def fetched(row: Row) -> Row:
        async with semaphore:
            data = await store.get(_own(ns, row["key"]))
        return _unpacked(db, ns, row, data)

    restored = await asyncio.gather(*(fetched(row) for row in archived))
    if restored:
        await db.write("archive/restore", ns=ns, rows=list(restored))
        await forget_objects(db, store, ns, [row["key"] for row in archived])
    episodes = await by_ids(db, ns, ids)
    return [episodes[found[ref].id] for ref in refs]


async def forget_objects(db: Database, store: ArchiveStore, ns: Namespace,
                         keys: list[str]) -> None:
    """Delete objects of the namespace no episode of it points to any more."""
    keys = owned(ns, keys)
    if not keys:
        return
    used = set((await db.read("archive/still_used", ns=ns, keys=keys))[0]["used"])
    await store.delete([key for key in keys if key not in used])


async def objects_of(store: ArchiveStore, ns: Namespace) -> list[str]:
    return await store.keys(namespace_prefix(ns))


def owned(ns: Namespace, keys: list[str]) -> list[str]:
    """The keys of the namespace's own objects (``key_for``'s shape under its prefix, so no
    ``..`` climbs out of it): the only objects it may delete."""
    shape = re.compile(re.escape(namespace_prefix(ns)) + r"/[0-9a-f]{2}/[0-9a-f]{64}")
    return [key for key in keys if isinstance(key, str) and shape.fullmatch(key)]


async def read_back(db: Database, store: ArchiveStore, ns: Namespace, episode: Row) -> Row:
    """An archived episode's moved properties (content, metadata…, as stored), read from its
    object and checked as ``rehydrate`` checks them; the graph is not changed (an export)."""
    key = episode["archive_key"]
    return _unpacked(db, ns, {"episode": episode, "key": key},
                     await store.get(_own(ns, key)))


def _own(ns: Namespace, key: str) -> str:
    """``key`` when it names one of the namespace's objects; a pointer anywhere else (an old
    import's, or one tampered with in the graph: ``../..``) is read from nowhere."""
    if not owned(ns, [key]):
        raise ArchiveMissing("an archived episode points outside this namespace's archive; "
                             "its content cannot be brought back")
    return key


def _packed(ns: Namespace, row: Row) -> bytes:
    payload = {"ns": ns, "id": row["id"], "content_hash": row["content_hash"],
               **{name: row.get(name) for name in MOVED}}
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return zlib.compress(text.encode(), 6)


def _unpacked(db: Database, ns: Namespace, row: Row, data: bytes) -> Row:
    """The graph's properties back from an object, once it is shown to be this episode's
    (its content hash made with ``db``'s keys)."""
    stored, key = row["episode"], row["key"]
    try:
        payload: dict[str, Any] = json.loads(zlib.decompress(data))
    except (zlib.error, ValueError):
        raise ArchiveMissing(f"archive object {key} is not an archived episode") from None
    if (payload.get("ns"), payload.get("id"), payload.get("content_hash")) != (
            ns, stored["id"], stored["content_hash"]):
        raise ArchiveMissing(f"archive object {key} holds another episode")
    moved = {name: payload.get(name) for name in MOVED}
    again = Episode.from_row({**stored, **moved}, db).as_new().content_hash(
        encryption.active(db), stored["content_hash"])
    if not hmac.compare_digest(again, stored["content_hash"]):
        raise ArchiveMissing(f"archive object {key} does not match the episode's content hash")
    return {"id": stored["id"], "key": key, **moved}


def _moved_bytes(row: Row) -> int:
    return sum(len(str(row.get(name) or "").encode()) for name in MOVED)
