"""The audit log: who changed which namespace's memory, how, when, and how it ended.

One ``(:AuditEvent)`` per mutation field, written in the operation's own transaction or after
it (``graphmem/api/server/extensions/audit.py`` says when), with the API key's name and id,
the request id and the outcome (``ok`` or the error code). Never arguments other than the
namespace, never content. Readable by admin keys only.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime

from graphmem.core.namespaces import Namespace
from graphmem.core.pagination import Page, after_time_cursor, time_cursor
from graphmem.core.timeutil import parse_stored_datetime, to_native
from graphmem.db.database import Database, Row, Tx


@dataclass(frozen=True)
class AuditEvent:
    id: str
    namespace: str
    at: datetime
    operation: str
    actor: str
    key_id: str
    outcome: str
    request_id: str | None

    @classmethod
    def from_row(cls, row: Row) -> AuditEvent:
        return cls(id=row["id"], namespace=row["ns"], at=parse_stored_datetime(row["at"]),
                   operation=row["operation"], actor=row["actor"], key_id=row["key_id"],
                   outcome=row["outcome"], request_id=row.get("request_id"))


async def record(db: Database, events: list[dict[str, str | None]]) -> None:
    """Write events, one statement per namespace (every statement is scoped to one)."""
    for ns, params in _per_namespace(events):
        await db.write("governance/audit/record", ns=ns, **params)


async def record_in(tx: Tx, events: list[dict[str, str | None]]) -> None:
    """The same, inside the transaction that makes the change they record."""
    for ns, params in _per_namespace(events):
        await tx.run("governance/audit/record", ns=ns, **params)


def _per_namespace(events: list[dict[str, str | None]]) -> Iterator[tuple[str, Row]]:
    now = to_native(datetime.now(UTC))
    for ns in sorted({str(e["ns"]) for e in events}):
        yield ns, {"now": now, "events": [{**e, "id": f"audit_{uuid.uuid4().hex}"}
                                          for e in events if e["ns"] == ns]}


async def page(db: Database, ns: Namespace, first: int,
               after: str | None) -> Page[AuditEvent]:
    after_t, after_id = after_time_cursor(after)
    rows = await db.read("governance/audit/page", ns=ns, limit=first + 1,
                         after_t=to_native(after_t), after_id=after_id)
    found = [AuditEvent.from_row(row["event"]) for row in rows]
    return Page([(time_cursor(e.at, e.id), e) for e in found[:first]],
                has_next=len(found) > first)
