"""What erasing an entity takes, worked out before anything is written: the plan the erasure
carries out inside its transaction, and what its dry run (``erasurePlan``) shows a person
deciding whether to go ahead. One function makes both, so the dry run lists exactly what the
erasure then removes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from graphmem.core.errors import InvalidInput, NotFound
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database, Row
from graphmem.episodes import store as episodes
from graphmem.facts import entities
from graphmem.governance import mentions
from graphmem.governance.mentions import Mention, MentionScope, Objects, Reads

MAX_TURNS = 1_000  # turns one subject erasure erases or redacts (as eraseEpisodes)
SUMMARY_EXCERPT = 160


@dataclass(frozen=True)
class PlannedFact:
    id: str
    text: str
    status: str


@dataclass(frozen=True)
class PlannedTurn:
    id: str
    kind: str
    occurred_at: datetime
    session_id: str | None
    excerpt: str
    action: Literal["erase", "redact"]


@dataclass(frozen=True)
class PlannedSummary:
    id: str
    session_id: str | None
    excerpt: str


@dataclass(frozen=True)
class SubjectPlan:
    entity: entities.Entity
    names: list[str]  # its name and aliases: what a mention is
    mentions: MentionScope
    facts: list[PlannedFact]  # every version about it: deleted
    retracted: list[PlannedFact]  # others whose only evidence is an erased turn
    turns: list[PlannedTurn]
    summaries: list[PlannedSummary]  # withdrawn (stale, their text replaced)
    subject: Row = field(repr=False)  # governance/erasure/subject_plan's row
    redact: list[Mention] = field(repr=False)
    restore: list[Mention] = field(repr=False)  # archived turns holding only a copy

    @property
    def erase_ids(self) -> list[str]:
        return [t.id for t in self.turns if t.action == "erase"]

    @property
    def changed_ids(self) -> list[str]:
        """The facts and turns whose summaries are withdrawn."""
        return [f.id for f in self.facts] + [t.id for t in self.turns]


async def dry_run(db: Database, ns: Namespace, name: str, with_episodes: bool,
                  scope: MentionScope) -> SubjectPlan:
    """The plan of erasing the entity ``name``, read and not carried out."""
    entity = await entities.by_name(db, ns, name)
    if entity is None:
        raise NotFound(f"no entity named {name!r}", field="entity")
    return await plan(db, db.read, ns, entity, with_episodes, scope)


async def plan(db: Database, read: Reads, ns: Namespace, entity: entities.Entity,
               with_episodes: bool, scope: MentionScope,
               objects: Objects | None = None) -> SubjectPlan:
    """What goes; archived turns are read back through ``objects`` (read ahead by the
    erasure, so its transaction does not wait on the archive store)."""
    objects = {} if objects is None else objects
    names = sorted({entity.name, *entity.aliases})
    subject = (await read("governance/erasure/subject_plan", ns=ns, id=entity.id))[0]
    found = [] if scope is MentionScope.KEEP else await mentions.find(db, read, ns, names,
                                                                         objects)
    said = [m for m in found if m.own]
    # The observations recording changes to its facts name it: they go always; the turns
    # evidencing its facts are the user's record and go when asked; those naming it as `scope`
    # says.
    erase = {*subject["observations"], *(subject["episodes"] if with_episodes else [])}
    if scope is MentionScope.ERASE:
        erase |= {m.id for m in said}
    redact = [m for m in said if m.id not in erase] if scope is MentionScope.REDACT else []
    if len(erase) + len(redact) > MAX_TURNS:
        raise InvalidInput(f"erasing it would take {len(erase) + len(redact)} turns, more than "
                           f"{MAX_TURNS}: erase some with eraseEpisodes first",
                           field="episodes" if scope is MentionScope.KEEP else "mentions")
    taken = erase | {m.id for m in redact}
    restore = [m for m in found if not m.own and m.id not in taken
               and m.row.get("archived_at") is not None]
    turns = await _turns(db, read, ns, sorted(erase), found, redact, mentions.pattern(names),
                         objects)
    facts = await _facts(read, ns, subject["facts"])
    retracted = await _retracted(read, ns, sorted(erase), set(subject["facts"]))
    summaries = await _summaries(read, ns, [f.id for f in facts] + [t.id for t in turns])
    return SubjectPlan(entity, names, scope, facts, retracted, turns, summaries, subject,
                       redact, restore)


async def _turns(db: Database, read: Reads, ns: Namespace, erase: list[str], found: list[Mention],
                 redact: list[Mention], matcher: Any, objects: Objects) -> list[PlannedTurn]:
    known = {m.id: m for m in found}
    missing = [i for i in erase if i not in known]
    if missing:
        for row in await episodes.stored_rows(read, ns, missing):
            turn = await mentions.described(db, ns, row, matcher, objects)
            known[turn.id] = turn
    planned = [_planned(known[i], "erase") for i in erase if i in known]
    planned += [_planned(m, "redact") for m in redact]
    return sorted(planned, key=lambda t: (t.occurred_at, t.id))


def _planned(turn: Mention, action: Literal["erase", "redact"]) -> PlannedTurn:
    return PlannedTurn(turn.id, turn.kind, turn.occurred_at, turn.session_id,
                       turn.excerpt or turn.opening, action)


async def _facts(read: Reads, ns: Namespace, ids: list[str]) -> list[PlannedFact]:
    if not ids:
        return []
    return [PlannedFact(r["id"], r["text"] or "", r["status"] or "")
            for r in await read("governance/erasure/facts_text", ns=ns, ids=ids)]


async def _retracted(read: Reads, ns: Namespace, erase: list[str],
                     deleted: set[str]) -> list[PlannedFact]:
    """Facts of other entities left without evidence by the erased turns (the cascade
    retracts them; the subject's own are deleted first)."""
    if not erase:
        return []
    orphaned = (await read("governance/erasure/episodes_plan", ns=ns, ids=erase))[0]["orphaned"]
    return await _facts(read, ns, sorted({i for i in orphaned if i and i not in deleted}))


async def _summaries(read: Reads, ns: Namespace, changed: list[str]) -> list[PlannedSummary]:
    if not changed:
        return []
    rows = await read("governance/erasure/summaries_affected", ns=ns, changed_ids=changed)
    return [PlannedSummary(r["id"], r.get("session_id"),
                           " ".join((r["text"] or "").split())[:SUMMARY_EXCERPT])
            for r in rows]
