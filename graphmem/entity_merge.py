"""Merging two entities that turned out to be one ("A. Smith" is Alice).

Everything moves to the surviving entity in one transaction: fact edges of any type, the
statement nodes' SUBJECT/OBJECT links, aliases; the merged name becomes an alias, so it
keeps resolving. Facts that become identical (both said "works at Acme") are folded into
the oldest one, which gains the duplicate's evidence; the duplicate stays as history,
superseded with strategy ``merge``. An ``(:EntityMerge)`` node records the merge for audit.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime

from graphmem import entities, facts, policies, resolution
from graphmem.db import Database, Row, Tx
from graphmem.entities import Entity
from graphmem.errors import InvalidInput, NotFound
from graphmem.intervals import Interval
from graphmem.namespaces import Namespace
from graphmem.timeutil import maybe_datetime, to_native


@dataclass(frozen=True)
class MergeReport:
    entity: Entity
    merge_id: str
    facts_moved: int
    edges_moved: int
    aliases_moved: int
    duplicates_folded: int
    conflicts_opened: int


async def merge_entities(db: Database, ns: Namespace, into: str, merged: str,
                         actor: str | None = None, reason: str | None = None) -> MergeReport:
    """Fold the entity named ``merged`` into the one named ``into``."""
    if reason is not None and len(reason) > 1_000:
        raise InvalidInput("reason must be at most 1000 characters", field="reason")
    return await db.transaction(lambda tx: _merge(tx, ns, into, merged, actor, reason))


async def _merge(tx: Tx, ns: Namespace, into_name: str, merged_name: str,
                 actor: str | None, reason: str | None) -> MergeReport:
    into = await _find(tx, ns, into_name, "into")
    merged = await _find(tx, ns, merged_name, "entity")
    if into.id == merged.id:
        raise InvalidInput(f"{merged_name!r} and {into_name!r} are already one entity",
                           field="entity")
    await entities.lock(tx, ns, [into.id, merged.id])
    now = to_native(datetime.now(UTC))
    why = reason or f"merged {merged.name!r} into {into.name!r}"
    merge_id = f"merge_{uuid.uuid4().hex}"
    moved = (await tx.run("entities/merge_move", ns=ns, into_id=into.id, from_id=merged.id,
                          merge_id=merge_id, now=now, actor=actor, reason=why))[0]
    identities, folds = _reidentify(await tx.run("entities/merge_facts", ns=ns,
                                                 into_id=into.id))
    folded = await tx.run("entities/merge_fold", ns=ns, identities=identities, folds=folds,
                          now=now, actor=actor, reason=f"duplicate after merge: {why}")
    disputes = await _dispute_overlaps(tx, ns, into.id, now)
    survivor = await _find(tx, ns, into.name, "into")
    return MergeReport(entity=survivor, merge_id=merge_id, facts_moved=moved["facts_moved"],
                       edges_moved=moved["edges_moved"], aliases_moved=moved["aliases_moved"],
                       duplicates_folded=folded[0]["folded"] if folded else 0,
                       conflicts_opened=disputes)


async def _find(tx: Tx, ns: Namespace, name: str, field: str) -> Entity:
    rows = await tx.run("entities/by_name", ns=ns, key=entities.entity_key(name))
    if not rows:
        raise NotFound(f"no entity named {name!r}", field=field)
    return Entity.from_row(rows[0]["entity"], rows[0]["aliases"])


async def _dispute_overlaps(tx: Tx, ns: Namespace, entity_id: str, now: datetime) -> int:
    """Two names, two values of a ONE predicate (Alice lives in Lisbon, A. Smith in Porto):
    a merge cannot know which is right, so overlapping values become one open conflict."""
    versions = [resolution.Version.from_row(row) for row in await tx.run(
        "facts/believed_of_subject", ns=ns, subject_id=entity_id)]
    in_force = await policies.for_predicates(tx, ns, sorted({v.predicate for v in versions}))
    disputes = []
    for predicate, policy in in_force.items():
        if policy.cardinality is not policies.Cardinality.ONE:
            continue
        values = [v for v in versions if v.predicate == predicate]
        clashing = {v.id for v in values for w in values
                    if v.identity != w.identity and v.interval.overlaps(w.interval)}
        if clashing:
            disputes.append({"id": f"conflict_{uuid.uuid4().hex}", "fact_ids": sorted(clashing)})
    if disputes:
        await tx.run("conflicts/open", ns=ns, now=now, conflicts=disputes)
    return len(disputes)


def _reidentify(rows: list[Row]) -> tuple[list[Row], list[Row]]:
    """New identities for facts whose endpoints changed, and which believed facts now
    duplicate an older believed one with overlapping validity. The oldest survives; on a
    tie, the one that was already the survivor's."""
    changed: list[Row] = []
    believed: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        identity = facts.identity(row["subject_id"], row["predicate"], row["object_id"])
        if identity != row["identity"]:
            changed.append({"id": row["id"], "identity": identity})
        if row["believed"]:
            believed[identity].append(row)
    moved = {row["id"] for row in changed}
    folds: list[Row] = []
    for same in believed.values():
        kept: list[Row] = []
        for row in sorted(same, key=lambda r: (r["recorded_at"], r["id"] in moved, r["id"])):
            keep = next((k for k in kept if _interval(k).overlaps(_interval(row))), None)
            if keep is None:
                kept.append(row)
            else:
                folds.append({"keep": keep["id"], "dup": row["id"]})
    return changed, folds


def _interval(row: Row) -> Interval:
    return Interval(maybe_datetime(row["valid_from"]), maybe_datetime(row["valid_to"]))
