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

from graphmem.core.errors import InvalidInput, NotFound
from graphmem.core.namespaces import Namespace
from graphmem.core.timeutil import to_native
from graphmem.db.database import Database, Row, Tx
from graphmem.facts import entities, policies, resolution
from graphmem.facts import plan_writer as resolution_store
from graphmem.facts import store as facts
from graphmem.facts.entities import Entity


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
    merged = await _find(tx, ns, merged_name, "from")  # the arguments' names in the API
    if into.id == merged.id:
        raise InvalidInput(f"{merged_name!r} and {into_name!r} are already one entity",
                           field="from")
    # Every entity sharing a fact with either changes too (names, identities, statuses).
    neighbours = [row["id"] for row in await tx.run("facts/entities/neighbours", ns=ns,
                                                    ids=[into.id, merged.id])]
    await entities.lock(tx, ns, [into.id, merged.id, *neighbours])
    now = datetime.now(UTC)
    why = reason or f"merged {merged.name!r} into {into.name!r}"
    merge_id = f"merge_{uuid.uuid4().hex}"
    moved = (await tx.run("facts/entities/merge_move", ns=ns, into_id=into.id, from_id=merged.id,
                          merge_id=merge_id, now=to_native(now), actor=actor, reason=why))[0]
    rows = await tx.run("facts/entities/merge_facts", ns=ns, into_id=into.id)
    for row in rows:
        row["identity"] = facts.identity(row["subject_id"], row["predicate"], row["object_id"])
    decided, folds = _fold_duplicates(rows, f"duplicate after merge: {why}")
    await tx.run("facts/entities/merge_fold", ns=ns, folds=folds, identities=[
        {"id": r["id"], "identity": r["identity"]} for r in rows
        if r["identity"] != r["stored_identity"]])
    await _dispute_clashes(tx, ns, into.id, rows, decided)
    await resolution_store.write_plan(tx, ns, decided, [], actor, now)
    survivor = await _find(tx, ns, into.name, "into")
    return MergeReport(entity=survivor, merge_id=merge_id, facts_moved=moved["facts_moved"],
                       edges_moved=moved["edges_moved"], aliases_moved=moved["aliases_moved"],
                       duplicates_folded=len(folds), conflicts_opened=len(decided.disputes))


async def _find(tx: Tx, ns: Namespace, name: str, field: str) -> Entity:
    rows = await tx.run("facts/entities/by_name", ns=ns, key=entities.entity_key(name))
    if not rows:
        raise NotFound(f"no entity named {name!r}", field=field)
    return Entity.from_row(rows[0]["entity"], rows[0]["aliases"])


def _fold_duplicates(rows: list[Row], reason: str) -> tuple[resolution.Plan, list[Row]]:
    """Believed facts that now say the same thing with overlapping validity fold into the
    oldest (on a tie, the one that was already the survivor's): the duplicate ends, keeping
    as a revision any validity outside the one it folds into."""
    moved = {r["id"] for r in rows if r["identity"] != r["stored_identity"]}
    decided, folds = resolution.Plan(), []
    believed: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        if row["believed"]:
            believed[row["identity"]].append(row)
    for same in believed.values():
        kept: list[resolution.Version] = []
        for row in sorted(same, key=lambda r: (r["recorded_at"], r["id"] in moved, r["id"])):
            version = resolution.Version.from_row(row)
            keep = next((k for k in kept if k.interval.overlaps(version.interval)), None)
            if keep is None:
                kept.append(version)
                continue
            folds.append({"keep": keep.id, "dup": version.id})
            versions = [version]
            resolution.end(version, keep.id, "merge", reason, versions, decided,
                           keep=version.interval.minus(keep.interval))
            kept.extend(versions)  # its remainders, if any
    return decided, folds


async def _dispute_clashes(tx: Tx, ns: Namespace, entity_id: str, rows: list[Row],
                           decided: resolution.Plan) -> None:
    """Two names, two values of a ONE predicate (Alice lives in Lisbon, A. Smith in Porto):
    a merge cannot know which is right, so clashing values become one open conflict."""
    ended = set(decided.ended)
    versions = [resolution.Version.from_row(r) for r in rows
                if r["believed"] and r["subject_id"] == entity_id and r["id"] not in ended]
    in_force = await policies.for_predicates(tx, ns, sorted({v.predicate for v in versions}))
    for predicate, policy in in_force.items():
        if policy.cardinality is not policies.Cardinality.ONE:
            continue
        clash = resolution.clashing([v for v in versions if v.predicate == predicate])
        if clash:
            decided.disputes.append(clash)
