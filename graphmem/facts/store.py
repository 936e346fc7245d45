"""Facts: subject–predicate–object statements, each one edge plus one statement node.

The edge ``(subject)-[:WORKS_AT {fact_id, …}]->(object)`` is what Neo4j Browser shows; the
``(:Fact)`` node, written in the same transaction, carries the full record and the provenance
relationships (``EVIDENCED_BY`` episodes, ``CITES`` from summaries, ``SUPERSEDES``).
Re-asserting a current fact (same subject, predicate and object) adds evidence to it.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from functools import cache
from typing import Any

from graphmem.core.errors import InvalidInput
from graphmem.core.identifiers import normalise_predicate, relationship_type
from graphmem.core.namespaces import Namespace
from graphmem.core.pagination import Page, after_time_cursor
from graphmem.core.timeutil import require_aware, to_native
from graphmem.db.database import Database, Row, Tx
from graphmem.episodes import store as episodes
from graphmem.facts import entities, policies, resolution
from graphmem.facts import plan_writer as resolution_store
from graphmem.facts.intervals import Interval
from graphmem.facts.model import MACHINE_SOURCES, Fact, Outcome, Source, literal_text, sentence

MAX_EVIDENCE = 100
DEFAULT_CONFIDENCE = 1.0  # of a fact stated without one


@dataclass(frozen=True)
class Literal:
    """A typed literal object: exactly one of string, number, boolean, date."""

    string: str | None = None
    number: float | None = None
    boolean: bool | None = None
    date: date | None = None

    def typed(self) -> tuple[str, Any, str]:
        """(datatype, value, canonical key) — or InvalidInput unless exactly one is set."""
        if sum(v is not None for v in (self.string, self.number, self.boolean, self.date)) == 1:
            if self.string is not None:
                if not 1 <= len(self.string) <= 10_000:
                    raise InvalidInput("value.string must be 1-10000 characters", field="value")
                return "string", self.string, self.string
            if self.number is not None:
                number = float(self.number)
                if not math.isfinite(number):
                    raise InvalidInput("value.number must be finite", field="value")
                return "number", number, repr(number)
            if self.boolean is not None:
                return "boolean", self.boolean, "true" if self.boolean else "false"
            if self.date is not None:
                return "date", self.date, self.date.isoformat()
        raise InvalidInput("value must set exactly one of string, number, boolean, date",
                           field="value")


@dataclass(frozen=True)
class NewFact:
    subject: str
    predicate: str
    object: str | None = None
    value: Literal | None = None
    confidence: float | None = None  # None: unqualified (see resolution.restated_confidence)
    source: Source = Source.AGENT_ASSERTION
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    evidence: list[str] = field(default_factory=list)
    subject_type: str | None = None
    object_type: str | None = None


@dataclass(frozen=True)
class Asserted:
    """What an assertion did. The fact itself is read when wanted (GraphQL asks for it
    only when selected): reading back a large batch cost more than writing it."""

    fact_id: str
    outcome: Outcome


@dataclass(frozen=True)
class FactFilter:
    subject: str | None = None
    predicate: str | None = None
    object: str | None = None
    source: Source | None = None
    min_confidence: float | None = None
    valid_at: datetime | None = None  # true in the world at this instant
    as_of: datetime | None = None  # believed by memory at this instant
    include_history: bool = False  # every version, unless valid_at/as_of are given

    def moments(self) -> tuple[datetime | None, datetime | None]:
        """(as_of, valid_at) to filter on. By default: believed now and valid now; as of a
        past belief time, valid at that time; with history, only what was asked."""
        for name, moment in (("asOf", self.as_of), ("validAt", self.valid_at)):
            if moment is not None:
                require_aware(moment, name)
        if self.include_history:
            return self.as_of, self.valid_at
        as_of = self.as_of or datetime.now(UTC)
        return as_of, self.valid_at or as_of


@dataclass(frozen=True)
class _Prepared:
    """A validated assertion with everything the Cypher needs except resolved ids."""

    new: NewFact
    subject: str
    predicate: str
    rel_type: str
    object_name: str
    object_kind: str
    literal: tuple[str, Any, str] | None


def _prepare_all(batch: list[NewFact]) -> list[_Prepared]:
    """Each fact validated, each name cleaned once per batch (the names are not cached
    beyond it: see `entities`)."""
    clean = cache(entities.clean_name)
    return [_prepare(new, i, clean) for i, new in enumerate(batch)]


def _prepare(new: NewFact, index: int, clean: Callable[[str, str], str]) -> _Prepared:
    try:
        subject = clean(new.subject, "subject")
        predicate = normalise_predicate(new.predicate)
        rel_type = relationship_type(predicate)
        if (new.object is None) == (new.value is None):
            raise InvalidInput("give exactly one of object (an entity) or value (a literal)",
                               field="object")
        literal = new.value.typed() if new.value is not None else None
        object_name = clean(new.object, "object") if new.object is not None \
            else literal_text(literal[0], literal[2]) if literal else ""
        if new.confidence is not None:
            check_confidence(new.confidence)
        for name, moment in (("validFrom", new.valid_from), ("validTo", new.valid_to)):
            if moment is not None:
                require_aware(moment, name)
        if new.valid_from and new.valid_to and new.valid_from >= new.valid_to:
            raise InvalidInput("validFrom must be before validTo", field="validTo")
        if len(new.evidence) > MAX_EVIDENCE:
            raise InvalidInput(f"at most {MAX_EVIDENCE} evidence references per fact",
                               field="evidence")
    except InvalidInput as exc:
        exc.details.setdefault("index", index)
        raise
    return _Prepared(new, subject, predicate, rel_type, object_name,
                     "entity" if literal is None else literal[0], literal)


async def assert_facts(db: Database, ns: Namespace, batch: list[NewFact],
                       asserted_by: str | None = None) -> list[Asserted]:
    """Assert a batch in one transaction; bad input anywhere writes nothing."""
    prepared = _prepare_all(batch)
    return await db.transaction(lambda tx: _assert(tx, ns, prepared, asserted_by))


def confidence(new: NewFact) -> float:
    """The confidence a new fact is created with: as stated, else ``DEFAULT_CONFIDENCE``."""
    return DEFAULT_CONFIDENCE if new.confidence is None else new.confidence


def check_confidence(confidence: float) -> None:
    """A fact's confidence, asserted or imported."""
    if not 0.0 <= confidence <= 1.0:
        raise InvalidInput("confidence must be between 0 and 1", field="confidence")


def check(new: NewFact) -> None:
    """Raise ``InvalidInput`` unless ``new`` could be asserted (for proposals to filter)."""
    _prepare_all([new])


async def assert_batch_in(tx: Tx, ns: Namespace, batch: list[NewFact],
                          asserted_by: str | None) -> list[Asserted]:
    """Assert a batch inside a running transaction (a pipeline writing its results)."""
    return await _assert(tx, ns, _prepare_all(batch), asserted_by)


async def current_values(tx: Tx, ns: Namespace, subject: str, predicate: str) -> list[Row]:
    """The facts (id, object) of a subject (name or alias) and predicate believed and valid
    now."""
    return await tx.run("facts/current_values", ns=ns, subject_key=entities.entity_key(subject),
                        predicate=normalise_predicate(predicate), now=datetime.now(UTC))


async def assert_in(tx: Tx, ns: Namespace, new: NewFact, asserted_by: str | None,
                    correcting: tuple[str, str] | None = None) -> Asserted:
    """Assert one fact inside a running transaction. ``correcting`` is (fact id, reason) of a
    believed fact it replaces outright: that one ends, superseded by this one."""
    return (await _assert(tx, ns, _prepare_all([new]), asserted_by, correcting))[0]


async def _assert(tx: Tx, ns: Namespace, batch: list[_Prepared], asserted_by: str | None,
                  correcting: tuple[str, str] | None = None) -> list[Asserted]:
    evidence = await _resolve_evidence(tx, ns, batch)
    names: dict[str, str | None] = {}
    for p in batch:
        names.setdefault(p.subject, p.new.subject_type)
        if p.literal is None:
            names.setdefault(p.object_name, p.new.object_type)
    entity_ids = await entities.resolve(tx, ns, names)
    # Subjects and entity objects: a merge moving either must not interleave with us.
    await entities.lock(tx, ns, list(entity_ids.values()))
    now = datetime.now(UTC)  # belief time starts once we hold the locks
    value_ids = await _resolve_values(tx, ns, batch, now)

    rows: list[Row] = []
    claims: list[resolution.Claim] = []
    for p in batch:
        subject_id = entity_ids[p.subject]
        object_id = (entity_ids[p.object_name] if p.literal is None
                     else value_ids[(p.literal[0], p.literal[2])])
        said_at = min((evidence[ref][1] for ref in p.new.evidence), default=now)
        stated = _stated_interval(p.new, said_at)
        rows.append({
            "subject_id": subject_id, "object_id": object_id, "subject": p.subject,
            "predicate": p.predicate, "rel_type": p.rel_type, "object": p.object_name,
            "object_kind": p.object_kind, "confidence": confidence(p.new),
            "source": p.new.source.value, "asserted_by": asserted_by,
            "stated_valid_from": to_native(stated.start), "stated_valid_to": to_native(stated.end),
            "text": sentence(p.subject, p.predicate, p.object_name),
            "identity": identity(subject_id, p.predicate, object_id),
            "evidence": [evidence[ref][0] for ref in p.new.evidence],
        })
        claims.append(resolution.Claim(
            subject_id=subject_id, predicate=p.predicate, identity=rows[-1]["identity"],
            interval=stated, confidence=confidence(p.new), source=p.new.source,
            start_given=p.new.valid_from is not None, qualified=p.new.confidence is not None))

    in_force = await policies.for_predicates(tx, ns, [p.predicate for p in batch])
    believed, forgotten = await _believed(tx, ns, claims, in_force)
    if correcting is not None:
        believed = [v for v in believed if v.id != correcting[0]]
    barred = {i: forgotten[c.identity] for i, c in enumerate(claims)
              if c.identity in forgotten and c.source in MACHINE_SOURCES}
    kept = [i for i in range(len(claims)) if i not in barred]
    decided = resolution.plan([claims[i] for i in kept], believed, in_force)
    if correcting is not None:
        decided.correct(*correcting)
    await resolution_store.write_plan(tx, ns, decided, [rows[i] for i in kept], asserted_by,
                                      now)
    outcomes = iter(decided.outcomes)
    return [Asserted(barred[i], Outcome.FORGOTTEN) if i in barred else Asserted(*next(outcomes))
            for i in range(len(claims))]


def _stated_interval(new: NewFact, said_at: datetime) -> Interval:
    """The validity a claim states. Without a start, a fact is taken to hold from when it was
    said (its earliest evidence, else now) — unless only an end is given (start unknown)."""
    if new.valid_from is not None or new.valid_to is not None:
        return Interval(new.valid_from, new.valid_to)
    return Interval(said_at, None)


async def _believed(tx: Tx, ns: Namespace, claims: list[resolution.Claim],
                    in_force: dict[str, policies.Policy],
                    ) -> tuple[list[resolution.Version], dict[str, str]]:
    """What memory believes now that the claims could touch: every value of a ONE predicate
    for the subject, or the same statement for a MANY predicate; and the claimed statements
    a user asked memory to forget (identity -> the forgotten fact)."""
    one = sorted({(c.subject_id, c.predicate) for c in claims
                  if in_force[c.predicate].cardinality is policies.Cardinality.ONE})
    rows = await tx.run("facts/believed", ns=ns,
                        keys=[{"subject_id": s, "predicate": p} for s, p in one],
                        identities=sorted({c.identity for c in claims}))
    return ([resolution.Version.from_row(row) for row in rows[0]["rows"]],
            {row["identity"]: row["fact_id"] for row in rows[0]["forgotten"]})


async def reconcile_in(tx: Tx, ns: Namespace, keys: list[tuple[str, str]], actor: str,
                       ) -> resolution.Plan:
    """Resolve, inside a running transaction, the facts of these (subject id, predicate)
    pairs that were learned apart and arrived together (a sync): copies of one statement
    joined into one fact, ONE predicates' values by their policy. The plan written is
    returned, so the caller knows which facts it ended, revised or put in dispute."""
    if not keys:
        return resolution.Plan()
    rows = await tx.run("facts/believed", ns=ns, identities=[],
                        keys=[{"subject_id": s, "predicate": p} for s, p in sorted(set(keys))])
    believed = [resolution.Version.from_row(row) for row in rows[0]["rows"]]
    in_force = await policies.for_predicates(tx, ns, [p for _, p in keys])
    decided = resolution.reconcile(believed, in_force)
    await resolution_store.write_plan(tx, ns, decided, [], actor, datetime.now(UTC))
    if decided.joined:  # one statement learned apart: one fact, with both its evidence
        await tx.run("facts/join_evidence", ns=ns, pairs=[
            {"kept": kept, "joined": joined} for kept, joined in decided.joined])
    return decided


def identity(subject_id: str, predicate: str, object_id: str) -> str:
    """What makes two assertions the same fact: resolved subject, predicate, resolved object."""
    return hashlib.sha256(f"{subject_id}\x1f{predicate}\x1f{object_id}".encode()).hexdigest()


async def _resolve_evidence(tx: Tx, ns: Namespace,
                            batch: list[_Prepared]) -> dict[str, tuple[str, datetime]]:
    """Each evidence reference -> (episode id, when it occurred); NotFound for any missing."""
    found = await episodes.resolve_refs(tx, ns, [r for p in batch for r in p.new.evidence],
                                        "evidence")
    return {ref: (e.id, e.occurred_at) for ref, e in found.items()}


async def _resolve_values(tx: Tx, ns: Namespace, batch: list[_Prepared],
                          now: datetime) -> dict[tuple[str, str], str]:
    literals = {(p.literal[0], p.literal[2]): p.literal[1] for p in batch if p.literal}
    if not literals:
        return {}
    rows = await tx.run("facts/values", ns=ns, now=to_native(now), values=[
        {"datatype": d, "key": k, "value": v} for (d, k), v in sorted(literals.items())])
    return {(row["datatype"], row["key"]): row["id"] for row in rows}


async def page(db: Database, ns: Namespace, where: FactFilter, first: int,
               after: str | None) -> Page[Fact]:
    after_t, after_id = after_time_cursor(after)
    as_of, valid_at = where.moments()
    rows = await db.read(
        "facts/page", ns=ns, limit=first + 1,
        subject_key=entities.entity_key(where.subject) if where.subject else None,
        predicate=normalise_predicate(where.predicate) if where.predicate else None,
        object=where.object, source=where.source.value if where.source else None,
        min_confidence=where.min_confidence,
        as_of=to_native(as_of), valid_at=to_native(valid_at), after_t=to_native(after_t),
        after_id=after_id)
    found = [Fact.from_row(row["fact"]) for row in rows]
    return Page([(f.cursor, f) for f in found[:first]], has_next=len(found) > first)


async def by_ids(db: Database, ns: Namespace, ids: list[str]) -> dict[str, Fact]:
    rows = await db.read("facts/by_ids", ns=ns, ids=ids)
    return {row["fact"]["id"]: Fact.from_row(row["fact"]) for row in rows}


async def in_order(db: Database, ns: Namespace, ids: list[str]) -> list[Fact]:
    """Facts by id in the order asked (a DataLoader's batch function)."""
    found = await by_ids(db, ns, ids)
    return [found[i] for i in ids]


async def pinned(db: Database, ns: Namespace, at: datetime, limit: int) -> list[Fact]:
    """The pinned facts believed at ``at``, at most ``limit``."""
    rows = await db.read("facts/pinned", ns=ns, now=at, limit=limit)
    return [Fact.from_row(row) for row in rows]


async def vectors(db: Database, ns: Namespace, ids: list[str]) -> dict[str, list[float]]:
    """The embeddings the worker stored for these facts (facts still waiting have none)."""
    rows = await db.read("facts/vectors", ns=ns, ids=ids)
    return {row["id"]: row["embedding"] for row in rows}


async def by_ids_in(tx: Tx, ns: Namespace, ids: list[str]) -> dict[str, Fact]:
    """The same, inside a running transaction (reading its own writes)."""
    rows = await tx.run("facts/by_ids", ns=ns, ids=ids)
    return {row["fact"]["id"]: Fact.from_row(row["fact"]) for row in rows}
