"""Disputes the policy could not settle, and settling them by decision.

A ``(:Conflict)`` links its candidate facts by ``CANDIDATE``; they stay believed, flagged
``disputed``, until ``resolveConflict`` keeps one (the others end as superseded with strategy
``manual``, keeping any validity outside the kept fact's) or until all but one are superseded
or retracted by later writes (the conflict then settles by itself).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum

from graphmem.core.errors import InvalidInput, NotFound
from graphmem.core.namespaces import Namespace
from graphmem.core.pagination import Page, after_time_cursor, time_cursor
from graphmem.core.timeutil import maybe_datetime, parse_stored_datetime, to_native
from graphmem.db.database import Database, Row, Tx
from graphmem.events import outbox
from graphmem.events.outbox import EventKind
from graphmem.facts import entities, resolution
from graphmem.facts import plan_writer as resolution_store
from graphmem.facts.model import Fact


class ConflictStatus(StrEnum):
    OPEN = "open"
    RESOLVED = "resolved"


@dataclass(frozen=True)
class Conflict:
    id: str
    namespace: str
    status: ConflictStatus
    subject: str
    predicate: str
    created_at: datetime
    resolved_at: datetime | None
    resolved_by: str | None
    reason: str | None
    kept: str | None
    candidates: list[Fact]

    @classmethod
    def from_row(cls, row: Row, candidates: list[Row]) -> Conflict:
        return cls(id=row["id"], namespace=row["ns"], status=ConflictStatus(row["status"]),
                   subject=row.get("subject", ""), predicate=row.get("predicate", ""),
                   created_at=parse_stored_datetime(row["created_at"]),
                   resolved_at=maybe_datetime(row.get("resolved_at")),
                   resolved_by=row.get("resolved_by"), reason=row.get("reason"),
                   kept=row.get("kept"), candidates=[Fact.from_row(c) for c in candidates])

    @property
    def cursor(self) -> str:
        return time_cursor(self.created_at, self.id)


async def page(db: Database, ns: Namespace, status: ConflictStatus | None, first: int,
               after: str | None) -> Page[Conflict]:
    after_t, after_id = after_time_cursor(after)
    rows = await db.read("facts/conflicts/page", ns=ns, status=status.value if status else None,
                         limit=first + 1, after_t=to_native(after_t), after_id=after_id)
    found = [Conflict.from_row(row["conflict"], row["candidates"]) for row in rows]
    return Page([(c.cursor, c) for c in found[:first]], has_next=len(found) > first)


async def resolve(db: Database, ns: Namespace, conflict_id: str, keep: str, reason: str,
                  actor: str | None) -> Conflict:
    if not reason.strip() or len(reason) > 1_000:
        raise InvalidInput("reason must be 1-1000 characters", field="reason")
    return await db.transaction(lambda tx: _resolve(tx, ns, conflict_id, keep, reason, actor))


async def _resolve(tx: Tx, ns: Namespace, conflict_id: str, keep: str, reason: str,
                   actor: str | None) -> Conflict:
    conflict, candidates = await _load(tx, ns, conflict_id)
    await entities.lock(tx, ns, sorted({i for c in candidates
                                        for i in (c["subject_id"], c["object_entity_id"]) if i}))
    conflict, candidates = await _load(tx, ns, conflict_id)  # re-read under the lock
    if conflict.status is not ConflictStatus.OPEN:
        raise InvalidInput(f"conflict {conflict_id!r} is already resolved", field="conflictId")
    believed = {c["id"]: resolution.Version.from_row(c) for c in candidates
                if c.get("retracted_at") is None}
    if keep not in believed:
        raise InvalidInput("keep must be one of the conflict's believed candidates",
                           field="keep", candidates=sorted(believed))
    now = datetime.now(UTC)
    decided = resolution.settle(believed.pop(keep), list(believed.values()), reason)
    # Close this conflict first: the plan may open a new one for what still clashes.
    await tx.run("facts/conflicts/resolve", ns=ns, id=conflict_id, keep=keep, reason=reason,
                 actor=actor, now=to_native(now))
    await outbox.emit(tx, ns, EventKind.CONFLICT_RESOLVED, [conflict_id], now)
    await resolution_store.write_plan(tx, ns, decided, [], actor, now, settle=False)
    await resolution_store.settle_orphaned(tx, ns, now)
    return (await _load(tx, ns, conflict_id))[0]


async def _load(tx: Tx, ns: Namespace, conflict_id: str) -> tuple[Conflict, list[Row]]:
    rows = await tx.run("facts/conflicts/by_id", ns=ns, id=conflict_id)
    if not rows:
        raise NotFound(f"no conflict {conflict_id!r} in this namespace", field="conflictId")
    return Conflict.from_row(rows[0]["conflict"], rows[0]["candidates"]), rows[0]["candidates"]
