"""Pruning: letting go of facts nobody needs, by retraction, never by silent deletion.

A namespace's policy is (``min_confidence``, ``unused_for``): a believed fact below that
confidence which no answer (recall, search, facts: see ``retrieval/usage``) has returned for
that long, or never since it was recorded, is retracted with the reason ``pruned`` — its record,
edge and evidence stay, ``facts(asOf:)`` still shows it was believed, and a new assertion
brings it back. A pinned fact is never pruned. The worker sweeps with retention; a dry run
lists what would go.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from graphmem.core.errors import InvalidInput, NotFound
from graphmem.core.namespaces import Namespace
from graphmem.core.timeutil import maybe_datetime, to_native
from graphmem.db.database import Database, Row, Tx
from graphmem.events import outbox
from graphmem.events.outbox import EventKind
from graphmem.facts import entities, plan_writer
from graphmem.governance import audit, rounds
from graphmem.summaries import store as summaries

log = logging.getLogger(__name__)
BATCH = 200  # facts retracted per transaction
ACTOR = "graphmem:pruning"
MAX_DAYS = 36_500


@dataclass(frozen=True)
class Policy:
    min_confidence: float
    unused_for: timedelta
    updated_at: datetime | None = None
    updated_by: str | None = None

    @classmethod
    def from_row(cls, row: Row) -> Policy:
        return cls(min_confidence=row["min_confidence"],
                   unused_for=timedelta(seconds=row["unused_for_s"]),
                   updated_at=maybe_datetime(row.get("updated_at")),
                   updated_by=row.get("updated_by"))

    @property
    def reason(self) -> str:
        return (f"pruned: confidence below {self.min_confidence:g} and unused for "
                f"{self.unused_for.total_seconds() / 86400:g} days")


@dataclass
class Pruned:
    """What one sweep retracted (or, in a dry run, would)."""

    dry_run: bool
    fact_ids: list[str] = field(default_factory=list)


def check(policy: Policy) -> None:
    """The rules a policy meets, whether set through the API or imported."""
    if not 0.0 < policy.min_confidence <= 1.0:
        raise InvalidInput("minConfidence must be above 0 and at most 1", field="minConfidence")
    if not timedelta(0) < policy.unused_for <= timedelta(days=MAX_DAYS):
        raise InvalidInput(f"unusedForDays must be above 0 and at most {MAX_DAYS}",
                           field="unusedForDays")


async def set_policy(db: Database, ns: Namespace, policy: Policy, actor: str | None) -> Policy:
    check(policy)
    rows = await db.write("governance/pruning/set", ns=ns, now=to_native(datetime.now(UTC)),
                          actor=actor,
                          min_confidence=policy.min_confidence,
                          unused_for_s=policy.unused_for.total_seconds())
    return Policy.from_row(rows[0]["policy"])


async def remove_policy(db: Database, ns: Namespace) -> None:
    if not (await db.write("governance/pruning/remove", ns=ns))[0]["removed"]:
        raise NotFound("this namespace has no pruning policy")


async def policy_of(db: Database, ns: Namespace) -> Policy | None:
    rows = await db.read("governance/pruning/get", ns=ns)
    return Policy.from_row(rows[0]["policy"]) if rows else None


async def prune(db: Database, ns: Namespace, dry_run: bool = False,
                now: datetime | None = None, actor: str = ACTOR) -> Pruned:
    """Apply the namespace's policy as of ``now``: retract what it lets go of, a batch per
    transaction, oldest first (or only list it)."""
    policy = await policy_of(db, ns)
    if policy is None:
        raise NotFound("this namespace has no pruning policy: set one with setPruningPolicy")
    moment = now or datetime.now(UTC)
    scope = {"ns": ns, "min_confidence": policy.min_confidence,
             "cutoff": to_native(moment - policy.unused_for)}
    pruned = Pruned(dry_run)
    if dry_run:
        due = await db.read("governance/pruning/due", **scope, limit=100_000)
        pruned.fact_ids = due[0]["ids"]
        return pruned
    while True:
        batch = await db.transaction(lambda tx: _retract_batch(tx, scope, policy, moment, actor))
        if batch is None:
            return pruned
        pruned.fact_ids += batch


async def _retract_batch(tx: Tx, scope: Row, policy: Policy, now: datetime,
                         actor: str) -> list[str] | None:
    """One batch retracted; None when nothing is due."""
    ns = Namespace(scope["ns"])
    due = (await tx.run("governance/pruning/due", **scope, limit=BATCH))[0]
    if not due["ids"]:
        return None
    await entities.lock(tx, ns, due["entities"])  # their caches move on
    retracted: list[str] = (await tx.run(
        "governance/pruning/retract", ns=ns, ids=due["ids"], cutoff=scope["cutoff"],
        now=to_native(now), reason=policy.reason, actor=actor))[0]["retracted"]
    await outbox.emit(tx, ns, EventKind.FACT_RETRACTED, retracted, now)
    await plan_writer.settle_orphaned(tx, ns, now)
    await summaries.mark_stale(tx, ns, retracted, "a cited fact was pruned")
    return retracted


async def prune_all(db: Database, now: datetime | None = None) -> int:
    """The worker's round over every namespace with a policy; facts retracted. Each sweep is
    audited (operation ``pruneFacts``, actor ``graphmem:pruning``)."""
    names = [row["ns"] for row in await db.read("governance/pruning/namespaces", limit=10_000)]
    total = sum(await rounds.each_namespace(
        "pruning", names, lambda ns: _prune_audited(db, Namespace(ns), now)))
    if total:
        log.info("pruning retracted %d fact(s)", total)
    return total


async def _prune_audited(db: Database, ns: Namespace, now: datetime | None) -> int:
    done = await prune(db, ns, now=now)
    if done.fact_ids:
        await audit.record(db, [{"ns": ns, "operation": "pruneFacts", "actor": ACTOR,
                                 "key_id": None, "outcome": "ok", "request_id": None}])
    return len(done.fact_ids)
