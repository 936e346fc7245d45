"""Graphiti → the export format: one Graphiti group, read from its Neo4j database, imports like
any graphmem export (checked, chunked, resumable, and again without change).

What maps (docs/export-format.md, "From Graphiti"):
- an ``Episodic`` node → an episode: ``externalId`` ``graphiti:<uuid>``, at its ``valid_at``,
  recorded at its ``created_at``, content as Graphiti stored it. A ``message`` episode is a
  user's or agent's message spoken by the name before its first colon (``alice: hi``);
  ``text`` is a document, ``json`` and ``fact_triple`` observations. Its name, source, source
  description and uuid are kept in its metadata under ``graphiti``;
- a ``Saga`` → a session of its episodes (the others go to the session ``graphiti``); its
  summary → a session summary covering the episodes it had seen, produced by ``graphiti``;
- ``Entity`` nodes → entities (two with one matching form, ``Alice`` and ``alice``, become
  one), a custom label as the entity's type;
- a ``RELATES_TO`` edge → a fact version: its name as the predicate (``WORKS_AT`` → works_at),
  its ``fact`` sentence as the text, ``valid_at``/``invalid_at`` as validity, ``created_at``
  as the moment memory began to believe it and ``expired_at`` (Graphiti invalidated it) as
  the moment it stopped: a superseded version, so ``facts(asOf:)`` answers what Graphiti
  believed then. Its ``episodes`` become evidence. Source ``import``, asserted by
  ``graphiti``.

What cannot: which edge replaced an expired one (Graphiti does not record it: the version is
superseded with a reason, without a SUPERSEDES link); entity summaries and community nodes
(Graphiti writes them with an LLM from the edges; graphmem summarises episodes); attributes
of custom types; ``MENTIONS`` (graphmem finds an episode's entities through its facts and
search); a name that cannot be a predicate (a reserved one such as ``SUBJECT``, or too long)
becomes ``relates_to``; an ``invalid_at`` not after ``valid_at`` is dropped; embeddings
(recomputed here).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from neo4j import AsyncGraphDatabase, RoutingControl
from neo4j.exceptions import DriverError, Neo4jError

from graphmem.core.errors import DatabaseUnavailable, InvalidInput, NotFound
from graphmem.core.identifiers import normalise_predicate, relationship_type
from graphmem.core.namespaces import Namespace
from graphmem.core.timeutil import maybe_datetime
from graphmem.db.database import Row
from graphmem.db.statements import statement
from graphmem.episodes.store import EpisodeKind, NewEpisode, validate
from graphmem.facts.entities import entity_key
from graphmem.facts.model import FactStatus, Source
from graphmem.facts.store import identity
from graphmem.portability.episode_log import Arrival, episode_log
from graphmem.portability.format import header, node, relationship, remapped

SESSION = "graphiti"
PRODUCER = "graphiti"
FALLBACK_PREDICATE = "relates_to"
MAX_CONTENT = 1_000_000  # Graphiti keeps whole documents in one episode
_SPEAKER = re.compile(r"([^:\n]{1,64}):\s")
_AGENTS = frozenset({"assistant", "agent", "ai", "bot", "system"})
_KINDS = {"text": EpisodeKind.DOCUMENT, "json": EpisodeKind.OBSERVATION,
          "fact_triple": EpisodeKind.OBSERVATION}
_STATEMENTS = ("episodes", "sagas", "entities", "edges")


@dataclass(frozen=True)
class GraphitiGroup:
    """What one Graphiti group holds, as read from its database."""

    name: str
    episodes: list[Row]
    sagas: list[Row]
    entities: list[Row]
    edges: list[Row]


async def read(uri: str, auth: tuple[str, str], group: str,
               database: str | None = None) -> GraphitiGroup:
    """Read ``group`` from the Neo4j database Graphiti writes to (read queries only)."""
    found = []
    try:
        async with AsyncGraphDatabase.driver(uri, auth=auth) as driver:
            for name in _STATEMENTS:
                records, _, _ = await driver.execute_query(
                    statement(f"portability/graphiti_{name}"), {"group": group},
                    database_=database, routing_=RoutingControl.READ)
                found.append([record.data() for record in records])
    except (DriverError, Neo4jError, ValueError) as exc:  # ValueError: a malformed URI
        raise DatabaseUnavailable(f"cannot read Graphiti's graph at {uri}: {exc}") from None
    if not found[0] and not found[3]:
        raise NotFound(f"Graphiti's graph at {uri} has no episodes or edges in group {group!r}")
    return GraphitiGroup(group, *found)


def records(group: GraphitiGroup, into: Namespace) -> Iterator[dict[str, Any]]:
    """The export records for ``group``. Ids and times come from Graphiti's, so converting
    and importing the same graph again changes nothing."""
    arrivals = [_arrival(row, into) for row in group.episodes]
    episode_ids = {row["uuid"]: a.id for row, a in zip(group.episodes, arrivals, strict=True)}
    log = episode_log(into, arrivals)
    entities = _entities(group.entities, into)
    facts = _facts(group.edges, entities, episode_ids, into)
    summaries = [s for s in (_summary(saga, arrivals, episode_ids, into)
                             for saga in group.sagas) if s is not None]
    nodes = [*log.nodes, *entities.nodes, *(f.node for f in facts),
             *(s.node for s in summaries)]
    links = [*log.relationships, *(r for f in facts for r in f.links),
             *(r for s in summaries for r in s.links)]
    times = [a.recorded_at for a in arrivals] + [f.recorded_at for f in facts]
    yield header(into, True, max(times, default=datetime(2000, 1, 1, tzinfo=UTC)))
    yield from nodes
    yield from links
    yield {"end": {"nodes": len(nodes), "relationships": len(links)}}


def _arrival(row: Row, into: Namespace) -> Arrival:
    where = f"Graphiti episode {row['uuid']}"
    content = row.get("content") or ""
    source = row.get("source") or "text"
    speaker = _SPEAKER.match(content) if source == "message" else None
    actor = speaker.group(1).strip() if speaker else None
    if source == "message":
        kind = EpisodeKind.AGENT_MESSAGE if (actor or "").casefold() in _AGENTS \
            else EpisodeKind.USER_MESSAGE
    else:
        kind = _KINDS.get(source, EpisodeKind.OBSERVATION)
    occurred = _instant(row.get("valid_at") or row.get("created_at"), where)
    kept = {"uuid": row["uuid"], "name": row.get("name"), "source": source,
            "source_description": row.get("source_description")}
    episode = NewEpisode(
        content=content, kind=kind, occurred_at=occurred, external_id=f"graphiti:{row['uuid']}",
        session_id=row.get("saga") or SESSION, actor=actor,
        metadata={"graphiti": {k: v for k, v in kept.items() if v}})
    try:
        validate(episode, MAX_CONTENT)
    except InvalidInput as exc:
        raise InvalidInput(f"{where}: {exc.message}") from None
    return Arrival(remapped(f"ep_graphiti:{row['uuid']}", into), episode,
                   _instant(row.get("created_at"), where))


@dataclass
class _Entities:
    nodes: list[dict[str, Any]]
    ids: dict[str, str]  # Graphiti uuid -> entity id
    names: dict[str, str]  # entity id -> name


def _entities(rows: list[Row], into: Namespace) -> _Entities:
    """One entity per matching form: Graphiti may keep ``Alice`` and ``alice`` apart."""
    first: dict[str, Row] = {}
    ids = {}
    for row in rows:
        name = " ".join(str(row.get("name") or "").split())
        if not name:
            raise InvalidInput(f"Graphiti entity {row['uuid']}: it has no name")
        key = entity_key(name)
        first.setdefault(key, {**row, "name": name})
        ids[row["uuid"]] = remapped(f"ent_graphiti:{key}", into)
    nodes = [node("Entity", ids[row["uuid"]], {
        "name": row["name"], "key": key, "created_at": _instant(row.get("created_at"), key),
        "type": row["types"][0].lower() if row.get("types") else None})
        for key, row in first.items()]
    return _Entities(nodes, ids, {n["key"]: n["props"]["name"] for n in nodes})


@dataclass(frozen=True)
class _Fact:
    node: dict[str, Any]
    links: list[dict[str, Any]]
    recorded_at: datetime


def _facts(edges: list[Row], entities: _Entities, episode_ids: dict[str, str],
           into: Namespace) -> list[_Fact]:
    """A fact version per edge; an edge repeating another (same statement, validity and
    belief) adds its evidence to the first instead."""
    made: dict[tuple[Any, ...], tuple[Row, list[str]]] = {}
    for edge in edges:
        subject, obj = entities.ids.get(edge["source"]), entities.ids.get(edge["target"])
        if subject is None or obj is None:
            raise InvalidInput(f"Graphiti edge {edge['uuid']}: joins an entity of another group")
        predicate = _predicate(str(edge.get("name") or ""))
        same = (identity(subject, predicate, obj), edge.get("valid_at"),
                edge.get("invalid_at"), edge.get("expired_at"))
        first = {**edge, "predicate": predicate, "subject_id": subject, "object_id": obj}
        evidence = made.setdefault(same, (first, []))[1]
        evidence += [e for e in edge["episodes"] if e in episode_ids and e not in evidence]
    return [_fact(edge, evidence, entities, episode_ids, into)
            for edge, evidence in made.values()]


def _fact(edge: Row, evidence: list[str], entities: _Entities, episode_ids: dict[str, str],
          into: Namespace) -> _Fact:
    where = f"Graphiti edge {edge['uuid']}"
    subject, obj = entities.names[edge["subject_id"]], entities.names[edge["object_id"]]
    recorded = _instant(edge.get("created_at"), where)
    expired = maybe_datetime(edge.get("expired_at"))
    valid_from, valid_to = maybe_datetime(edge.get("valid_at")), \
        maybe_datetime(edge.get("invalid_at"))
    if valid_from and valid_to and valid_to <= valid_from:
        valid_to = None  # Graphiti stored an empty interval: keep when it began
    status = FactStatus.SUPERSEDED if expired else FactStatus.ACTIVE
    fact_id = remapped(f"fact_graphiti:{edge['uuid']}", into)
    props = {
        "identity": identity(edge["subject_id"], edge["predicate"], edge["object_id"]),
        "subject": subject, "predicate": edge["predicate"], "object": obj,
        "object_kind": "entity",
        "text": edge.get("fact") or f"{subject} {edge['predicate']} {obj}",
        "confidence": 1.0, "source": Source.IMPORT.value, "asserted_by": PRODUCER,
        "valid_from": valid_from, "valid_to": valid_to,
        "stated_valid_from": valid_from, "stated_valid_to": valid_to,
        "recorded_at": recorded, "status": status.value, "retracted_at": expired,
        "reason": "invalidated in Graphiti" if expired else None,
        "ended_by": PRODUCER if expired else None}
    ends = {"subject": ("Entity", edge["subject_id"]), "object": ("Entity", edge["object_id"])}
    links = [
        relationship("SUBJECT", ("Fact", fact_id), ends["subject"]),
        relationship("OBJECT", ("Fact", fact_id), ends["object"]),
        relationship(relationship_type(edge["predicate"]), ends["subject"], ends["object"],
                     {"fact_id": fact_id, "valid_from": valid_from, "valid_to": valid_to,
                      "status": status.value, "confidence": 1.0}),
        *(relationship("EVIDENCED_BY", ("Fact", fact_id), ("Episode", episode_ids[uuid]),
                       {"at": recorded}) for uuid in evidence)]
    return _Fact(node("Fact", fact_id, props), links, recorded)


def _predicate(name: str) -> str:
    try:
        predicate = normalise_predicate(name)
        relationship_type(predicate)
    except InvalidInput:
        return FALLBACK_PREDICATE
    return predicate


@dataclass(frozen=True)
class _Summary:
    node: dict[str, Any]
    links: list[dict[str, Any]]


def _summary(saga: Row, arrivals: list[Arrival], episode_ids: dict[str, str],
             into: Namespace) -> _Summary | None:
    """A saga's running summary, covering the episodes it had seen when Graphiti wrote it."""
    text = (saga.get("summary") or "").strip()
    written = maybe_datetime(saga.get("summarized_at"))
    covered = {episode_ids[e["uuid"]] for e in saga["episodes"]
               if e["uuid"] in episode_ids and _seen(e, written)}
    if not text or not covered:
        return None
    times = [a.episode.occurred_at for a in arrivals if a.id in covered]
    summary_id = remapped(f"sum_graphiti:{saga['uuid']}", into)
    return _Summary(
        node("Summary", summary_id, {
            "session_id": saga["name"], "scope": "session", "level": 1, "text": text,
            "covers_from": min(times), "covers_to": max(times), "stale": False,
            "created_at": written or _instant(saga.get("created_at"), f"saga {saga['uuid']}"),
            "producer": PRODUCER}),
        [relationship("SUMMARIZES", ("Summary", summary_id), ("Episode", episode_id))
         for episode_id in sorted(covered)])


def _seen(episode: Row, summarized_at: datetime | None) -> bool:
    arrived = maybe_datetime(episode.get("created_at"))
    return summarized_at is None or arrived is None or arrived <= summarized_at


def _instant(value: Any, where: str) -> datetime:
    moment = maybe_datetime(value)
    if moment is None:
        raise InvalidInput(f"{where}: it has no created_at")
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
