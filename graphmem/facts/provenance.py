"""Why does the agent believe X, since when, and who said so? The audit trail of a fact,
and the reverse: what was derived from an episode. Batched so nested GraphQL stays O(1)
round trips per level."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime

from graphmem.core.errors import NotFound
from graphmem.core.namespaces import Namespace
from graphmem.core.timeutil import parse_stored_datetime, to_native
from graphmem.db.database import Database, Row, group_rows
from graphmem.episodes.store import Episode
from graphmem.facts.model import Fact
from graphmem.summaries.store import Summary


@dataclass(frozen=True)
class Evidence:
    episode: Episode
    quote: str | None


@dataclass(frozen=True)
class HeldTurn:
    """Evidence held on another device (graphmem sync): which turn, where, said when, and
    its content hash; its words never left that device."""

    id: str
    device: str
    said_at: datetime | None
    content_hash: str | None

    @classmethod
    def from_row(cls, row: Row) -> HeldTurn:
        said = row.get("said_at")
        return cls(row["id"], row["device"], parse_stored_datetime(said) if said else None,
                   row.get("content_hash"))


@dataclass(frozen=True)
class Provenance:
    fact: Fact
    evidence: list[Evidence]  # oldest first
    held_elsewhere: list[HeldTurn]  # evidence on other devices, oldest first
    cited_by: list[Summary]
    supersedes: list[Fact]  # older facts this one replaced (transitively)
    superseded_by: list[Fact]  # newer facts that replaced this one (transitively)


async def of_fact(db: Database, ns: Namespace, fact_id: str) -> Provenance:
    rows = await db.read("facts/provenance", ns=ns, id=fact_id)
    if not rows:
        raise NotFound(f"no fact {fact_id!r} in this namespace", field="factId")
    row = rows[0]
    return Provenance(
        fact=Fact.from_row(row["fact"]),
        evidence=[Evidence(Episode.from_row(e["episode"], db), e["quote"])
                  for e in row["evidence"]],
        held_elsewhere=[HeldTurn.from_row(t) for t in row["turns"]],
        cited_by=[Summary.from_row(s) for s in row["summaries"]],
        supersedes=[Fact.from_row(f) for f in row["supersedes"]],
        superseded_by=[Fact.from_row(f) for f in row["superseded_by"]],
    )


@dataclass(frozen=True)
class Link:
    """One SUPERSEDES relationship seen from one end: the other fact, how and why."""

    fact: Fact
    strategy: str
    reason: str | None
    at: datetime
    actor: str | None

    @classmethod
    def from_row(cls, row: Row) -> Link:
        return cls(Fact.from_row(row["fact"]), row["strategy"], row.get("reason"),
                   parse_stored_datetime(row["at"]), row.get("actor"))


@dataclass(frozen=True)
class Links:
    supersedes: list[Link]  # facts this one replaced, newest first
    superseded_by: list[Link]  # facts that replaced this one, newest first
    revises: Fact | None  # the version this one narrows (what it kept of its validity)
    open_conflicts: list[str]


async def links_of(db: Database, ns: Namespace, fact_ids: list[str]) -> list[Links]:
    rows = {row["fact_id"]: row for row in await db.read("facts/links", ns=ns,
                                                         fact_ids=fact_ids)}
    empty: Row = {"supersedes": [], "superseded_by": [], "revises": None, "conflicts": []}
    return [Links(
        supersedes=[Link.from_row(r) for r in row["supersedes"]],
        superseded_by=[Link.from_row(r) for r in row["superseded_by"]],
        revises=Fact.from_row(row["revises"]) if row["revises"] else None,
        open_conflicts=list(row["conflicts"])) for row in (rows.get(i, empty) for i in fact_ids)]


async def evidence_of(db: Database, ns: Namespace, fact_ids: list[str],
                      content: bool = True) -> list[list[Evidence]]:
    """Each fact's evidence; ``content=False``: the episodes without content or metadata."""
    rows = await db.read("facts/evidence_of" if content else "facts/evidence_refs_of",
                         ns=ns, fact_ids=fact_ids)
    return group_rows(rows, fact_ids, "fact_id",
                      lambda row: Evidence(Episode.from_row(row["episode"], db), row["quote"]))


FACTS_PER_ENTITY = 200  # an entity's current facts read at once (newest first)


async def facts_of_episodes(db: Database, ns: Namespace,
                            episode_ids: list[str]) -> list[list[Fact]]:
    rows = await db.read("facts/of_episodes", ns=ns, episode_ids=episode_ids)
    return group_rows(rows, episode_ids, "episode_id", lambda row: Fact.from_row(row["fact"]))


async def facts_about(db: Database, ns: Namespace, entity_ids: list[str],
                      per_entity: int = FACTS_PER_ENTITY,
                      as_of: datetime | None = None) -> list[tuple[list[Fact], list[Fact]]]:
    """(facts where the entity is subject, facts where it is object) per entity: those
    believed and valid now (or at ``as_of``), the most recent ``per_entity`` of each."""
    at = to_native(as_of or datetime.now(UTC))
    rows = await db.read("facts/about_entities", ns=ns, entity_ids=entity_ids,
                         now=at, as_of=at, per_entity=per_entity)
    outgoing: dict[str, list[Fact]] = defaultdict(list)
    incoming: dict[str, list[Fact]] = defaultdict(list)
    for row in rows:
        target = outgoing if row["role"] == "SUBJECT" else incoming
        target[row["entity_id"]].append(Fact.from_row(row["fact"]))
    return [(outgoing[e], incoming[e]) for e in entity_ids]


async def recent_evidence(db: Database, ns: Namespace, fact_ids: list[str],
                          per_fact: int) -> dict[str, str]:
    """The words of the turns each fact was learned from (its newest ``per_fact``)."""
    rows = await db.read("facts/recent_evidence", ns=ns, fact_ids=fact_ids, per_fact=per_fact)
    return {row["fact_id"]: " ".join(e["quote"] or Episode.from_row(e["episode"], db).content
                                     for e in row["evidence"])
            for row in rows if row["evidence"]}


async def produced_facts(db: Database, ns: Namespace, ids: list[str]) -> list[list[Fact]]:
    """The facts each pipeline job (by id) produced."""
    rows = await db.read("facts/of_jobs", ns=ns, ids=ids)
    return group_rows(rows, ids, "job_id", lambda row: Fact.from_row(row["fact"]))
