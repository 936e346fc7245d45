"""Data steps that follow a migration's schema statements, for what Cypher alone cannot
compute (a namespace's Lucene token is a digest; a speaker's key is Python's casefold).

A step runs once, right after its migration's statements and before the migration is
recorded, so an interrupted one runs again; each is idempotent."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from functools import partial

from graphmem.core.errors import GraphmemError
from graphmem.core.identifiers import actor_key
from graphmem.core.namespaces import Namespace
from graphmem.core.time_expressions import event_time
from graphmem.core.timeutil import parse_stored_datetime, to_native
from graphmem.db.database import Database, Row, Tx
from graphmem.db.slots import Slot

log = logging.getLogger(__name__)
# How a stored content reads as plain text: security gives the database its own
# (encryption's reveal, see encryption.attach; db is below security); without one, content
# reads as stored.
Reveal = Callable[[str | None, str], str | None]
REVEAL: Slot[Reveal] = Slot("reveal")
_BEGINNING = datetime(1, 1, 2, tzinfo=UTC)  # before any episode: relink whole sessions
TURNS_PAGE = 2_000  # turns read (and their event times written) at a time


async def conversation_search(db: Database) -> None:
    """0012: ``ns_key`` on every indexed node, each session's windows, the Actor nodes."""
    namespaces = [Namespace(row["ns"]) for row in await db.read("db/migration_steps/namespaces")]
    for done, ns in enumerate(namespaces, start=1):
        row = (await db.write("db/migration_steps/search_keys", ns=ns))[0]
        sessions = [{"session_id": s, "earliest": to_native(_BEGINNING)}
                    for s in sorted(row["sessions"])]
        if sessions:
            await db.transaction(partial(_relink, ns=ns, sessions=sessions))
        actors = {actor_key(a): a for a in row["actors"] if actor_key(a)}
        await db.write("db/migration_steps/actors", ns=ns,
                       actors=[{"key": k, "name": n} for k, n in sorted(actors.items())])
        log.info("migration 0012: namespace %d of %d indexed for conversation search",
                 done, len(namespaces))


async def _relink(tx: Tx, ns: Namespace, sessions: list[Row]) -> None:
    await tx.run("episodes/relink", ns=ns, sessions=sessions)


async def requeue_spoken(db: Database) -> None:
    """0014: episodes with a speaker are embedded again, now with the speaker's name."""
    await db.run_auto("db/migration_steps/requeue_spoken")


async def event_subjects(db: Database) -> None:
    """0019: events written one node each become nodes of one event."""
    await db.run_auto("db/migration_steps/event_subjects")


async def escape_plain_enc(db: Database) -> None:
    """0020: user text that begins with ``enc:`` is escaped, never taken for sealed."""
    await db.run_auto("db/migration_steps/escape_plain_enc")


async def mark_change_notes(db: Database) -> None:
    """0022: graphmem's notes of changes written before are marked as notes."""
    await db.run_auto("db/migration_steps/mark_change_notes")


async def event_times(db: Database) -> None:
    """0023: each turn written before gets the event time its words tell of, if any."""
    for row in await db.read("db/migration_steps/namespaces"):
        await event_times_in(db, Namespace(row["ns"]))


async def event_times_in(db: Database, ns: Namespace) -> None:
    """The namespace's key, when keys are per namespace, is loaded by the database's hook
    before each statement that names ``ns`` (namespace_keys.attach)."""
    after, reveal = "", db.get(REVEAL) or _as_stored
    while page := await db.read("db/migration_steps/turns_page", ns=ns, after=after,
                                limit=TURNS_PAGE):
        told = [t for turn in page if (t := _told(turn, ns, reveal)) is not None]
        if told:
            await db.write("db/migration_steps/event_times", ns=ns, told=told)
        after = page[-1]["id"]


def _as_stored(content: str | None, ns: str) -> str | None:
    return content


def _told(turn: Row, ns: Namespace, reveal: Reveal) -> Row | None:
    """A turn's event time as the step stores it; None when its words name no time, or
    cannot be read here (sealed under a key this process lacks: it keeps none)."""
    try:
        content = reveal(turn["content"], ns) or ""
    except GraphmemError:
        return None
    found = event_time(content, parse_stored_datetime(turn["occurred_at"]))
    if found is None:
        return None
    return {"id": turn["id"], "start": to_native(found.start), "end": to_native(found.end)}


STEPS: dict[str, Callable[[Database], Awaitable[None]]] = {
    "0012_conversation_search": conversation_search,
    "0014_speaker_in_embeddings": requeue_spoken,
    "0019_events_per_transaction": event_subjects,
    "0020_unforgeable_seals": escape_plain_enc,
    "0022_change_notes": mark_change_notes,
    "0023_event_times": event_times,
}
