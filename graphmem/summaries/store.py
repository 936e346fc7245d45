"""Summaries: compressed context per session and hierarchically (summaries of summaries),
each linked to exactly what it covers and cites, and marked stale when that changes."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime

from graphmem.core.errors import InvalidInput, NotFound
from graphmem.core.namespaces import Namespace
from graphmem.core.timeutil import maybe_datetime, parse_stored_datetime, to_native
from graphmem.db.database import Database, Row, Tx, group_rows
from graphmem.events import outbox
from graphmem.events.outbox import EventKind

MAX_TEXT = 200_000


@dataclass(frozen=True)
class NewSummary:
    text: str
    scope: str = "session"
    level: int = 1
    session_id: str | None = None
    covers: list[str] = field(default_factory=list)  # episode ids or externalIds, summary ids
    cites: list[str] = field(default_factory=list)  # fact ids
    producer: str | None = None


@dataclass(frozen=True)
class Summary:
    id: str
    namespace: str
    session_id: str | None
    scope: str
    level: int
    text: str
    covers_from: datetime | None
    covers_to: datetime | None
    created_at: datetime
    stale: bool
    producer: str | None

    @classmethod
    def from_row(cls, row: Row) -> Summary:
        return cls(id=row["id"], namespace=row["ns"], session_id=row.get("session_id"),
                   scope=row["scope"], level=row["level"], text=row["text"],
                   covers_from=maybe_datetime(row.get("covers_from")),
                   covers_to=maybe_datetime(row.get("covers_to")),
                   created_at=parse_stored_datetime(row["created_at"]),
                   stale=bool(row.get("stale")), producer=row.get("producer"))


def _validate(new: NewSummary) -> None:
    check(new.text, new.level, new.scope)
    if not new.covers:
        raise InvalidInput("a summary must cover at least one episode or summary",
                           field="covers")


def check(text: str, level: int, scope: str) -> None:
    """The rules a summary's text, level and scope meet, whether written or imported."""
    if not text.strip() or len(text) > MAX_TEXT:
        raise InvalidInput(f"text must be 1-{MAX_TEXT} characters", field="text")
    if not 1 <= level <= 10:
        raise InvalidInput("level must be between 1 and 10", field="level")
    if not 1 <= len(scope) <= 64:
        raise InvalidInput("scope must be 1-64 characters", field="scope")


async def write(db: Database, ns: Namespace, new: NewSummary) -> Summary:
    _validate(new)
    return await db.transaction(lambda tx: _write(tx, ns, new))


async def write_in(tx: Tx, ns: Namespace, new: NewSummary) -> Summary:
    """The same inside a running transaction (a pipeline writing its result)."""
    _validate(new)
    return await _write(tx, ns, new)


async def _write(tx: Tx, ns: Namespace, new: NewSummary) -> Summary:
    # An episode may be named by its externalId, as a fact's evidence may.
    by_ref = {row["ref"]: row["id"] for row in await tx.run(
        "episodes/resolve", ns=ns, refs=sorted(set(new.covers)))}
    covers = {ref: by_ref.get(ref, ref) for ref in new.covers}
    found = (await tx.run("summaries/coverage", ns=ns, ids=sorted(set(covers.values())),
                          fact_ids=sorted(set(new.cites))))[0]
    known = set(found["episodes"]) | set(found["summaries"])
    missing = sorted(ref for ref, id_ in covers.items() if id_ not in known) \
        + sorted(set(new.cites) - set(found["facts"]))
    if missing:
        raise NotFound(f"not found in this namespace: {missing[:10]}", missing=missing[:10])
    starts = [t for t in (found["first"], found["sfirst"]) if t is not None]
    ends = [t for t in (found["last"], found["slast"]) if t is not None]
    now = datetime.now(UTC)
    rows = await tx.run(
        "summaries/write", ns=ns, id=f"sum_{uuid.uuid4().hex}", session_id=new.session_id,
        scope=new.scope, level=new.level, text=new.text, producer=new.producer,
        covers_from=min(starts) if starts else None, covers_to=max(ends) if ends else None,
        now=to_native(now), episode_ids=found["episodes"],
        summary_ids=found["summaries"], fact_ids=found["facts"])
    written = Summary.from_row(rows[0]["summary"])
    await outbox.emit(tx, ns, EventKind.SUMMARY_WRITTEN, [written.id], now)
    return written


async def latest(db: Database, ns: Namespace, session_id: str) -> Summary | None:
    rows = await db.read("summaries/latest", ns=ns, session_id=session_id)
    return Summary.from_row(rows[0]["summary"]) if rows else None


async def mark_stale(tx: Tx, ns: Namespace, changed_ids: list[str], reason: str,
                     withdrawn: str | None = None) -> int:
    """Mark summaries covering or citing any of the changed facts or episodes stale (and
    those built on them); with ``withdrawn``, replace their text by it too (erasure).

    Called inside the transaction that changes them: erasure, supersession, retraction."""
    now = datetime.now(UTC)
    rows = await tx.run("summaries/mark_stale", ns=ns, changed_ids=changed_ids, reason=reason,
                        withdrawn=withdrawn, now=to_native(now))
    marked: list[str] = rows[0]["marked"] if rows else []
    await outbox.emit(tx, ns, EventKind.SUMMARY_STALE, marked, now)
    return len(marked)


async def of_episodes(db: Database, ns: Namespace,
                      episode_ids: list[str]) -> list[list[Summary]]:
    rows = await db.read("summaries/of_episodes", ns=ns, episode_ids=episode_ids)
    return group_rows(rows, episode_ids, "episode_id",
                      lambda row: Summary.from_row(row["summary"]))


async def has_session(db: Database, ns: Namespace, session_id: str) -> bool:
    """Whether ``ns`` has a session of that id (one with at least one episode)."""
    return await session_frontier(db, ns, session_id) is not None


async def session_frontier(db: Database, ns: Namespace, session_id: str) -> Row | None:
    """A session's newest summary (``latest``) and the last turn it covers
    (``summarized_seq``); None when the session has no episode."""
    rows = await db.read("summaries/session_frontier", ns=ns, session_id=session_id)
    return rows[0] if rows else None


async def session_material(db: Database, ns: Namespace, session_id: str, after_seq: int,
                           limit: int) -> list[Row]:
    """The stored turns of a session after ``after_seq`` (content still sealed)."""
    rows = await db.read("summaries/session_material", ns=ns, session_id=session_id,
                         after_seq=after_seq, limit=limit)
    return [row["episode"] for row in rows]


async def to_fold(db: Database, ns: Namespace, limit: int) -> tuple[Summary | None, list[Summary]]:
    """The newest namespace summary, if fresh, and the session summaries to fold into it: those
    nothing fresh covers; with none fresh, each session's newest."""
    previous = await _summaries(db, "summaries/latest_namespace", ns)
    waiting = await _summaries(db, "summaries/namespace_frontier" if previous
                               else "summaries/latest_per_session", ns, limit=limit)
    return (previous[0] if previous else None), waiting


async def _summaries(db: Database, statement: str, ns: Namespace,
                     **params: object) -> list[Summary]:
    rows: list[Row] = await db.read(statement, ns=ns, **params)
    return [Summary.from_row(row["summary"]) for row in rows]


async def mark_summarized(tx: Tx, ns: Namespace, session_id: str | None, seq: int) -> None:
    """The session's turns up to ``seq`` are summarised."""
    await tx.run("summaries/summarized", ns=ns, session_id=session_id, seq=seq)


async def mark_rebuilt(tx: Tx, ns: str, session_id: str | None, now: datetime) -> None:
    """The stale summaries of the session (or, with none, the namespace's) are rebuilt."""
    await tx.run("summaries/mark_rebuilt", ns=ns, session_id=session_id, now=to_native(now))
