"""Ephemeral sessions: memory for one conversation only.

An agent that needs no long-term memory marks a session ephemeral, with an idle time to live.
Its episodes, the facts taken only from them and its summaries are erased — with a receipt,
as any erasure (``erasure.erase_session``) — when the agent closes the session, or when the
worker finds it idle past its time to live (no episode recorded into it for that long).
A fact the user pinned during it stays.

A closed session stays closed: a turn recorded into it later, or while it closed, is refused
with ``SessionClosed`` (the erasure holds the session's lock, so each turn is either erased
with it or comes after and is refused); it is never made again, ephemeral or not.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from graphmem.core.errors import (
    ConcurrentChange,
    DatabaseUnavailable,
    InvalidInput,
    NotFound,
    SessionClosed,
)
from graphmem.core.namespaces import Namespace
from graphmem.core.timeutil import maybe_datetime, to_native
from graphmem.db.database import Database, Row, Tx
from graphmem.governance import erasure, rounds
from graphmem.retrieval.fact_cache import FactCache

log = logging.getLogger(__name__)
ACTOR = "graphmem:ephemeral"
MAX_TTL = timedelta(days=30)
SWEEP_LIMIT = 100  # idle sessions erased per sweep; the next sweep takes the rest


@dataclass(frozen=True)
class SessionState:
    session_id: str
    ephemeral_ttl: timedelta | None
    updated_at: datetime | None

    @classmethod
    def from_row(cls, row: Row) -> SessionState:
        ttl = row.get("ephemeral_ttl_s")
        return cls(row["session_id"], timedelta(seconds=ttl) if ttl is not None else None,
                   maybe_datetime(row.get("updated_at")))


async def mark(db: Database, ns: Namespace, session_id: str, idle_ttl: timedelta,
               now: datetime | None = None) -> SessionState:
    """Make the session ephemeral (made here, as of ``now``, if it has none yet). Its idle
    time counts from its last recorded turn, not from this marking."""
    if not 1 <= len(session_id) <= 256:
        raise InvalidInput("sessionId must be 1-256 characters", field="sessionId")
    if not timedelta(seconds=1) <= idle_ttl <= MAX_TTL:
        raise InvalidInput(f"idleMinutes must be at least 1 second and at most {MAX_TTL.days} "
                           "days", field="idleMinutes")

    async def write(tx: Tx) -> Row:
        row = (await tx.run("governance/sessions/mark_ephemeral", ns=ns, session_id=session_id,
                            ttl_s=idle_ttl.total_seconds(),
                            now=to_native(now or datetime.now(UTC))))[0]
        if row["closed"]:
            raise SessionClosed.of(session_id)  # and the session made here is undone
        return dict(row["session"])

    return SessionState.from_row(await db.transaction(write))


async def close(db: Database, ns: Namespace, session_id: str, actor: str | None,
                cache: FactCache | None = None) -> erasure.Receipt:
    """The conversation is over: erase the ephemeral session now."""
    rows = await db.read("governance/sessions/get", ns=ns, session_id=session_id)
    if not rows:
        raise NotFound(f"no session {session_id!r} in this namespace", field="sessionId")
    if SessionState.from_row(rows[0]["session"]).ephemeral_ttl is None:
        raise InvalidInput(f"session {session_id!r} is not ephemeral: closing erases only "
                           "ephemeral sessions (eraseEpisodes erases others)", field="sessionId")
    return await erasure.erase_session(db, ns, session_id, actor, cache)


async def expire_idle(db: Database, now: datetime | None = None,
                      cache: FactCache | None = None) -> list[erasure.Receipt]:
    """The worker's sweep: erase every ephemeral session idle past its time to live."""
    receipts = []
    now = now or datetime.now(UTC)
    due = await db.read("governance/sessions/idle_ephemeral", now=to_native(now), limit=SWEEP_LIMIT)
    for row in due:
        try:
            receipts.append(await erasure.erase_session(db, Namespace(row["ns"]),
                                                        row["session_id"], ACTOR, cache,
                                                        idle_at=now))
        except NotFound:  # another worker erased it first
            continue
        except ConcurrentChange:  # a turn came in since it was found idle: not idle now
            continue
        except DatabaseUnavailable:  # everyone's trouble: the worker retries the sweep
            raise
        except Exception as exc:  # that namespace's trouble: the other sessions go on
            rounds.report("ephemeral sessions", row["ns"], exc)
    if receipts:
        log.info("erased %d idle ephemeral session(s)", len(receipts))
    return receipts
