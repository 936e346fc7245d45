"""A namespace's conversations: each session with its size and time span, the most recently
active first (the console's list of conversations)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from graphmem.core.namespaces import Namespace
from graphmem.core.pagination import Page, after_time_cursor, time_cursor
from graphmem.core.timeutil import parse_stored_datetime, to_native
from graphmem.db.database import Database


@dataclass(frozen=True)
class Session:
    session_id: str
    episodes: int
    first_at: datetime
    last_at: datetime
    ephemeral_ttl_s: float | None = None  # erased when idle this long (governance/ephemeral)


async def page(db: Database, ns: Namespace, first: int, after: str | None) -> Page[Session]:
    after_t, after_id = after_time_cursor(after)
    rows = await db.read("episodes/sessions", ns=ns, limit=first + 1,
                         after_t=to_native(after_t), after_id=after_id)
    found = [Session(session_id=row["session_id"], episodes=row["episodes"],
                     first_at=parse_stored_datetime(row["first_at"]),
                     last_at=parse_stored_datetime(row["last_at"]),
                     ephemeral_ttl_s=row.get("ephemeral_ttl_s")) for row in rows]
    return Page([(time_cursor(s.last_at, s.session_id), s) for s in found[:first]],
                has_next=len(found) > first)


async def user_actors(db: Database, ns: Namespace, session_id: str | None, scan: int,
                      limit: int) -> list[str]:
    """Who speaks the user's turns, among the newest ``scan`` of a session's (or, with no
    session, of the namespace's), at most ``limit`` of them."""
    if session_id is None:
        rows = await db.read("episodes/user_actors", ns=ns, scan=scan, limit=limit)
    else:
        rows = await db.read("episodes/session_user_actors", ns=ns, session_id=session_id,
                             scan=scan, limit=limit)
    return [row["actor"] for row in rows]
