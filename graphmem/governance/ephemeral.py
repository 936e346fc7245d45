"""Ephemeral sessions: memory for one conversation only.

An agent that needs no long-term memory marks a session ephemeral, with an idle time to live.
Its episodes, the facts taken only from them and its summaries are erased — with a receipt,
as any erasure (``erasure.erase_session``) — when the agent closes the session, or when the
worker finds it idle past its time to live (no episode recorded into it for that long).
A fact the user pinned during it stays.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from graphmem.core.errors import DatabaseUnavailable, InvalidInput, NotFound
from graphmem.core.namespaces import Namespace
from graphmem.core.timeutil import maybe_datetime, to_native
from graphmem.db.database import Database, Row
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


async def mark(db: Database, ns: Namespace, session_id: str,
               idle_ttl: timedelta) -> SessionState:
    if not 1 <= len(session_id) <= 256:
        raise InvalidInput("sessionId must be 1-256 characters", field="sessionId")
    if not timedelta(seconds=1) <= idle_ttl <= MAX_TTL:
        raise InvalidInput(f"idleMinutes must be at least 1 second and at most {MAX_TTL.days} "
                           "days", field="idleMinutes")
    rows = await db.write("sessions/mark_ephemeral", ns=ns, session_id=session_id,
                          ttl_s=idle_ttl.total_seconds(), now=to_native(datetime.now(UTC)))
    return SessionState.from_row(rows[0]["session"])


async def close(db: Database, ns: Namespace, session_id: str, actor: str | None,
                cache: FactCache | None = None) -> erasure.Receipt:
    """The conversation is over: erase the ephemeral session now."""
    rows = await db.read("sessions/get", ns=ns, session_id=session_id)
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
    due = await db.read("sessions/idle_ephemeral", now=to_native(now or datetime.now(UTC)),
                        limit=SWEEP_LIMIT)
    for row in due:
        try:
            receipts.append(await erasure.erase_session(db, Namespace(row["ns"]),
                                                        row["session_id"], ACTOR, cache))
        except NotFound:  # another worker erased it first
            continue
        except DatabaseUnavailable:  # everyone's trouble: the worker retries the sweep
            raise
        except Exception as exc:  # that namespace's trouble: the other sessions go on
            rounds.report("ephemeral sessions", row["ns"], exc)
    if receipts:
        log.info("erased %d idle ephemeral session(s)", len(receipts))
    return receipts
