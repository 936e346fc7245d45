"""Writes a conflict-resolution plan inside the caller's transaction: new facts, narrowed
revisions, conflicts, endings and SUPERSEDES links — then settles conflicts that no longer
clash and marks summaries citing ended facts stale."""

from __future__ import annotations

import uuid
from datetime import datetime

from graphmem.core.namespaces import Namespace
from graphmem.core.timeutil import to_native
from graphmem.db.database import Row, Tx
from graphmem.events import outbox
from graphmem.events.outbox import EventKind
from graphmem.facts import resolution, supersession
from graphmem.facts.model import FactStatus
from graphmem.summaries import store as summaries


async def write_plan(tx: Tx, ns: Namespace, decided: resolution.Plan, rows: list[Row],
                     actor: str | None, now: datetime, settle: bool = True) -> None:
    """Apply a resolution plan. Order matters: every node exists before conflicts link them,
    and facts end last, so a conflict left without a clash settles."""
    at = to_native(now)
    await outbox.emit(tx, ns, EventKind.FACT_CREATED,
                      [c.id for c in decided.created] + [r.id for r in decided.revisions], now)
    if decided.created:
        await tx.run("facts/create", ns=ns, now=at, facts=[
            rows[c.claim] | {"id": c.id, "status": c.status.value,
                             "valid_from": to_native(c.interval.start),
                             "valid_to": to_native(c.interval.end)}
            for c in decided.created])
    for level in _by_depth(decided.revisions):
        await tx.run("facts/revise", ns=ns, now=at, revisions=[
            {"id": r.id, "of": r.of, "status": r.status.value,
             "valid_from": to_native(r.interval.start), "valid_to": to_native(r.interval.end)}
            for r in level])
    disputes = {f"conflict_{uuid.uuid4().hex}": ids for ids in decided.disputes if len(ids) > 1}
    if disputes:
        await tx.run("facts/conflicts/open", ns=ns, now=at, conflicts=[
            {"id": conflict_id, "fact_ids": ids} for conflict_id, ids in disputes.items()])
        await outbox.emit(tx, ns, EventKind.CONFLICT_OPENED, disputes, now)
    if decided.restatements:
        await tx.run("facts/add_evidence", ns=ns, now=at, updates=[
            {"fact_id": r.fact_id, "confidence": r.confidence,
             "source": r.source.value if r.source else None,
             "evidence": rows[r.claim]["evidence"]} for r in decided.restatements])
    if decided.ended:
        await tx.run("facts/end", ns=ns, now=at, status=FactStatus.SUPERSEDED.value, actor=actor,
                     ends=[{"id": i, "reason": why} for i, why in decided.ended.items()])
        await outbox.emit(tx, ns, EventKind.FACT_SUPERSEDED, sorted(decided.ended), now)
    if decided.supersessions:
        links = [{"winner": s.winner, "loser": s.loser, "strategy": s.strategy,
                  "reason": s.reason} for s in decided.supersessions]
        await tx.run("facts/supersede", ns=ns, now=at, actor=actor, links=links)
        await supersession.refuse_cycles(tx, ns, links)
    if decided.ended and settle:
        await settle_orphaned(tx, ns, now)
    if decided.ended:
        await summaries.mark_stale(tx, ns, sorted(decided.ended), "a cited fact was superseded")


async def settle_orphaned(tx: Tx, ns: Namespace, now: datetime) -> None:
    """Close the open conflicts whose candidates no longer clash, and release the facts no
    open conflict holds (after a supersession, retraction, erasure or resolution)."""
    rows = await tx.run("facts/conflicts/settle_orphaned", ns=ns, now=to_native(now))
    await outbox.emit(tx, ns, EventKind.CONFLICT_RESOLVED, rows[0]["closed"], now)


def _by_depth(revisions: list[resolution.Revision]) -> list[list[resolution.Revision]]:
    """Revisions grouped so each group only revises facts written by earlier groups (one
    statement cannot see the nodes it creates itself)."""
    depth: dict[str, int] = {}
    for r in revisions:  # planned in order: a revision's origin is planned before it
        depth[r.id] = depth.get(r.of, -1) + 1
    levels: list[list[resolution.Revision]] = [
        [] for _ in range(max(depth.values(), default=-1) + 1)]
    for r in revisions:
        levels[depth[r.id]].append(r)
    return levels
