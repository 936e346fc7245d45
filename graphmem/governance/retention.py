"""Retention: how long a namespace keeps episodes of a kind and sensitivity, and what then.

A policy is (kind or any, sensitivity or any, max age, delete | redact | archive). The sweeper
(in the worker, every ``retention_sweep_s``; or on request with ``sweepRetention``) applies each
policy in bounded batches, oldest first: ``delete`` is episode erasure (covering summaries turn
stale, facts whose only evidence it was are retracted — or kept believed without evidence, by
setting — and a receipt is left), ``redact`` is redaction, ``archive`` moves the content to the
archive store (the tiered storage of ``graphmem/archive``: the node, its links and, unless the
policy says otherwise, its embedding stay, and ``rehydrate`` brings the content back). A dry
run counts without touching.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from functools import partial

from graphmem.archive import stores as archive_stores
from graphmem.archive import tiering
from graphmem.core.errors import InvalidInput, NotFound
from graphmem.core.namespaces import Namespace
from graphmem.core.timeutil import maybe_datetime, to_native
from graphmem.db.database import Database, Row
from graphmem.episodes import redaction
from graphmem.episodes.store import EpisodeKind, Sensitivity
from graphmem.governance import erasure, rounds

log = logging.getLogger(__name__)
BATCH = 500
MAX_AGE_DAYS = 36_500
ACTOR = "graphmem:retention"


class Action(StrEnum):
    DELETE = "delete"
    REDACT = "redact"
    ARCHIVE = "archive"  # content to the archive store (graphmem/archive), node and links stay


@dataclass(frozen=True)
class Policy:
    kind: EpisodeKind | None  # None: any kind
    sensitivity: Sensitivity | None  # None: any sensitivity
    max_age: timedelta
    action: Action
    updated_at: datetime | None = None
    updated_by: str | None = None
    keep_searchable: bool = True  # archive: the turn keeps its embedding (vector search)

    @property
    def key(self) -> str:
        return f"{self.kind.value if self.kind else '*'}|" \
               f"{self.sensitivity.value if self.sensitivity else '*'}"

    @classmethod
    def from_row(cls, row: Row) -> Policy:
        return cls(kind=EpisodeKind(row["kind"]) if row.get("kind") else None,
                   sensitivity=Sensitivity(row["sensitivity"]) if row.get("sensitivity")
                   else None,
                   max_age=timedelta(seconds=row["max_age_s"]), action=Action(row["action"]),
                   updated_at=maybe_datetime(row.get("updated_at")),
                   updated_by=row.get("updated_by"),
                   keep_searchable=row.get("keep_searchable", True))


@dataclass
class Applied:
    """What one policy did (or would do, in a dry run) in one sweep."""

    policy: Policy
    matched: int = 0
    episodes_deleted: int = 0
    episodes_redacted: int = 0
    episodes_archived: int = 0
    bytes_archived: int = 0  # compressed, in the archive store
    bytes_moved: int = 0  # the text that left the graph for it
    facts_retracted: int = 0
    summaries_stale: int = 0
    receipts: list[str] = field(default_factory=list)


def check(policy: Policy) -> None:
    """The rules a policy meets, whether set through the API or imported."""
    if not timedelta(0) < policy.max_age <= timedelta(days=MAX_AGE_DAYS):
        raise InvalidInput(f"maxAgeDays must be above 0 and at most {MAX_AGE_DAYS}",
                           field="maxAgeDays")


async def set_policy(db: Database, ns: Namespace, policy: Policy, actor: str | None) -> Policy:
    check(policy)
    rows = await db.write(
        "governance/retention/set", ns=ns, key=policy.key, now=datetime.now(UTC), actor=actor,
        kind=policy.kind.value if policy.kind else None,
        sensitivity=policy.sensitivity.value if policy.sensitivity else None,
        max_age_s=policy.max_age.total_seconds(), action=policy.action.value,
        keep_searchable=policy.keep_searchable)
    return Policy.from_row(rows[0]["policy"])


async def remove_policy(db: Database, ns: Namespace, kind: EpisodeKind | None,
                        sensitivity: Sensitivity | None) -> None:
    key = Policy(kind, sensitivity, timedelta(days=1), Action.DELETE).key
    if not (await db.write("governance/retention/remove", ns=ns, key=key))[0]["removed"]:
        raise NotFound("no retention policy for that kind and sensitivity", field="kind")


async def policies(db: Database, ns: Namespace) -> list[Policy]:
    rows = await db.read("governance/retention/list", ns=ns)
    return [Policy.from_row(row["policy"]) for row in rows]


async def sweep(db: Database, ns: Namespace, retract_orphans: bool, dry_run: bool = False,
                now: datetime | None = None) -> list[Applied]:
    """Apply every policy of a namespace to what is due at ``now``."""
    moment = now or datetime.now(UTC)
    return [await _apply(db, ns, policy, moment, retract_orphans, dry_run)
            for policy in await _readable(db, ns)]


async def _readable(db: Database, ns: Namespace) -> list[Policy]:
    """The namespace's policies a sweep can apply. One stored that cannot be read (an old
    import took ``action: "evil"``) is reported and left as it is, never applied, and never
    keeps the namespace's other policies from being applied."""
    readable = []
    for row in await db.read("governance/retention/list", ns=ns):
        try:
            readable.append(Policy.from_row(row["policy"]))
        except (KeyError, TypeError, ValueError) as exc:
            rounds.report("retention policy", ns, exc)
    return readable


async def sweep_all(db: Database, retract_orphans: bool) -> int:
    """The sweeper's round over every namespace with policies; episodes touched. A
    namespace whose sweep fails is reported and the round goes on (governance/rounds)."""
    names = [row["ns"] for row in await db.read("governance/retention/namespaces", limit=10_000)]
    swept = await rounds.each_namespace(
        "retention", names, lambda ns: sweep(db, Namespace(ns), retract_orphans))
    touched = sum(applied.episodes_deleted + applied.episodes_redacted
                  + applied.episodes_archived for done in swept for applied in done)
    if touched:
        log.info("retention swept %d episode(s)", touched)
    return touched


async def _apply(db: Database, ns: Namespace, policy: Policy, now: datetime,
                 retract_orphans: bool, dry_run: bool) -> Applied:
    applied = Applied(policy)
    scope = {"ns": ns, "cutoff": to_native(now - policy.max_age),
             "kind": policy.kind.value if policy.kind else None,
             "sensitivity": policy.sensitivity.value if policy.sensitivity else None,
             "action": policy.action.value}
    if dry_run:
        applied.matched = (await db.read("governance/retention/due_count", **scope))[0]["due"]
        return applied
    while ids := [row["id"] for row in await db.read("governance/retention/due", **scope,
                                                     limit=BATCH)]:
        applied.matched += len(ids)
        if policy.action is Action.DELETE:
            try:
                receipt = await erasure.erase_episodes(db, ns, ids, ACTOR,
                                                       retract_orphans=retract_orphans)
            except NotFound:  # another sweeper (worker) erased some first: look again
                applied.matched -= len(ids)
                continue
            applied.episodes_deleted += receipt.counts["episodes"]
            applied.facts_retracted += receipt.counts["facts_retracted"]
            applied.summaries_stale += receipt.counts["summaries_stale"]
            applied.receipts.append(receipt.id)
        elif policy.action is Action.ARCHIVE:
            moved = await tiering.archive_episodes(db, archive_stores.required(db), ns, ids,
                                                   policy.keep_searchable)
            applied.episodes_archived += moved.episodes
            applied.bytes_archived += moved.bytes_written
            applied.bytes_moved += moved.bytes_moved
            if moved.episodes < len(ids):  # changed meanwhile: skip them, do not loop on them
                applied.matched -= len(ids) - moved.episodes
                if not moved.episodes:
                    break
        else:
            reason = f"retention: older than {policy.max_age.days} days"
            done = await db.transaction(partial(redaction.redact_in, ns=ns, ids=ids,
                                                reason=reason, actor=ACTOR))
            applied.episodes_redacted += done["episodes_redacted"]
            applied.summaries_stale += done["summaries_stale"]
    return applied
