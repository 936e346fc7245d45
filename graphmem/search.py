"""Hybrid search over the whole memory graph: BM25 per kind, graph expansion, rank fusion.

Each kind (episodes, facts, summaries, entities) has its own Lucene index, scoped to the
namespace inside Lucene, and its own vector index (when an embedder is configured). A fact
hit brings its evidence episodes; an entity hit brings its
current facts. Rankings are fused by reciprocal rank fusion (k = 60), and every hit says
which retrievers found it and at what rank. Facts are current (believed now, valid now or at
``valid_at``) unless history is asked for. A time expression in the query ("last month")
becomes a time range over episodes.
"""

from __future__ import annotations

import asyncio
import re
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from graphmem import entities, episodes, facts, metrics, provenance, summaries, tracing
from graphmem.db import Database, Row
from graphmem.embeddings import Embedder
from graphmem.entities import Entity
from graphmem.episodes import Episode
from graphmem.errors import InvalidInput
from graphmem.facts_model import Fact
from graphmem.namespaces import Namespace
from graphmem.summaries import Summary
from graphmem.temporal import TimeRange, find_time_range
from graphmem.timeutil import require_aware, to_native

RRF_K = 60
MAX_LIMIT = 100
MAX_QUERY = 1_000


class Kind(StrEnum):
    EPISODE = "episode"
    FACT = "fact"
    SUMMARY = "summary"
    ENTITY = "entity"


@dataclass(frozen=True)
class Match:
    """One retriever's vote for a hit."""

    retriever: str  # bm25, or graph (expanded from another hit)
    rank: int  # 1-based, within that retriever's list for this kind
    via: str | None = None  # for graph: the hit it was expanded from


@dataclass
class Hit:
    kind: Kind
    id: str
    score: float = 0.0
    matches: list[Match] = field(default_factory=list)
    episode: Episode | None = None
    fact: Fact | None = None
    summary: Summary | None = None
    entity: Entity | None = None


Vote = Callable[[Kind, str, Match], None]


@dataclass(frozen=True)
class SearchQuery:
    text: str
    limit: int = 10
    kinds: tuple[Kind, ...] = tuple(Kind)
    session_id: str | None = None
    start: datetime | None = None  # episodes from (inclusive)
    end: datetime | None = None  # episodes until (exclusive)
    valid_at: datetime | None = None  # facts valid at (default now)
    include_history: bool = False
    reference_time: datetime | None = None  # for "last month" (default now)
    min_similarity: float = 0.2  # cosine; weaker vector matches are dropped
    retrievers: frozenset[str] = frozenset({"bm25", "vector", "graph"})  # for evaluation
    neighbours: bool = False  # an episode hit also brings the turns around it
    # Per-retriever RRF weights (others weigh 1). Vector counts double: on the retrieval
    # evaluation (bench/retrieval_eval.py) it wins recall@5 over equal weights, mostly on
    # paraphrased questions, and loses nothing elsewhere.
    weights: tuple[tuple[str, float], ...] = (("vector", 2.0),)


@dataclass(frozen=True)
class SearchResult:
    hits: list[Hit]
    time_range: TimeRange | None  # read from the query, when it had a time expression


async def search(db: Database, ns: Namespace, query: SearchQuery,
                 embedder: Embedder | None = None) -> SearchResult:
    _check(query)
    now = datetime.now(UTC)
    time_range = None
    text = query.text
    if query.start is None and query.end is None:
        time_range = find_time_range(text, query.reference_time or now)
        if time_range is not None:
            text = text.replace(time_range.expression, " ")
    start = query.start or (time_range.start if time_range else None)
    end = query.end or (time_range.end if time_range else None)
    words = [w for w in re.findall(r"\w+", text.casefold()) if len(w) > 1]
    hits: dict[tuple[Kind, str], Hit] = {}

    weights = dict(query.weights)

    def vote(kind: Kind, hit_id: str, match: Match) -> None:
        hit = hits.setdefault((kind, hit_id), Hit(kind, hit_id))
        hit.matches.append(match)
        hit.score += weights.get(match.retriever, 1.0) / (RRF_K + match.rank)

    filters = {"session_id": query.session_id, "valid_at": to_native(query.valid_at or now),
               "history": query.include_history, "start": to_native(start),
               "end": to_native(end)}
    if words and "bm25" in query.retrievers:
        await _retrieve(db, ns, query, "bm25", filters, lambda kind: (
            _INDEXED[kind][0], {"lucene": _lucene(ns, kind, words)}), vote)
    if words and embedder is not None and "vector" in query.retrievers:
        with tracing.span("embed query", {"graphmem.embedder": embedder.name}):
            vector = (await embedder.embed([text]))[0]
        await _retrieve(db, ns, query, "vector", filters, lambda kind: (_VECTOR[kind], {
            "vector": vector, "k": query.limit * 2 * VECTOR_OVERFETCH,
            "min_score": (1 + query.min_similarity) / 2}), vote)  # Neo4j scores cosine 0..1
    if "graph" in query.retrievers:
        await _expand(db, ns, query, hits, vote)
    ranked = sorted(hits.values(), key=lambda h: (-h.score, h.kind.value, h.id))[:query.limit]
    for hit in ranked:
        for match in hit.matches:
            metrics.RETRIEVAL_HITS.labels(f"search:{match.retriever}").inc()
    await _load(db, ns, ranked)
    return SearchResult([h for h in ranked if _loaded(h)], time_range)


def _check(query: SearchQuery) -> None:
    if not query.text.strip() or len(query.text) > MAX_QUERY:
        raise InvalidInput(f"query must be 1-{MAX_QUERY} characters", field="query")
    if not 1 <= query.limit <= MAX_LIMIT:
        raise InvalidInput(f"limit must be between 1 and {MAX_LIMIT}", field="limit")
    for name, moment in (("from", query.start), ("to", query.end), ("validAt", query.valid_at),
                         ("referenceTime", query.reference_time)):
        if moment is not None:
            require_aware(moment, name)


# Per kind: the statement that queries its fulltext index, and the Lucene fields to match.
# An episode matches on its own words first and on the turn before it (its context) second.
_INDEXED = {Kind.EPISODE: ("search/episodes", (("content", 2), ("context", 1))),
            Kind.FACT: ("search/facts", (("text", 1),)),
            Kind.SUMMARY: ("search/summaries", (("text", 1),)),
            Kind.ENTITY: ("search/entities", (("name", 1),))}
_VECTOR = {Kind.EPISODE: "search/episodes_vector", Kind.FACT: "search/facts_vector",
           Kind.SUMMARY: "search/summaries_vector", Kind.ENTITY: "search/entities_vector"}
EXPANDED_ENTITIES = 5
EXPANSION_PER_ENTITY = 20
VECTOR_OVERFETCH = 10  # the vector index spans namespaces: fetch more, keep this one's


def _lucene(ns: Namespace, kind: Kind, words: list[str]) -> str:
    terms = " ".join(words)
    matched = " OR ".join(f"{field}:({terms})^{boost}" for field, boost in _INDEXED[kind][1])
    return f'ns:"{ns}" AND ({matched})'


async def _retrieve(db: Database, ns: Namespace, query: SearchQuery, retriever: str,
                    filters: dict[str, Any],
                    per_kind: Callable[[Kind], tuple[str, dict[str, Any]]],
                    vote: Vote) -> None:
    """One retriever over every asked kind: one index per kind, queried concurrently (each
    an independent read), each list voting by rank."""
    async def one(kind: Kind) -> tuple[Kind, list[Row]]:
        name, params = per_kind(kind)
        return kind, await db.read(name, ns=ns, limit=query.limit * 2, **filters, **params)

    for kind, rows in await asyncio.gather(*(one(kind) for kind in query.kinds)):
        for rank, row in enumerate(rows, start=1):
            vote(kind, row["id"], Match(retriever, rank))


async def _expand(db: Database, ns: Namespace, query: SearchQuery,
                  hits: dict[tuple[Kind, str], Hit], vote: Vote) -> None:
    """A fact hit brings its evidence episodes; an entity hit its current facts; on request,
    an episode hit the turns just before and after it in its session."""
    best = {key: min(m.rank for m in hit.matches) for key, hit in hits.items()}
    episode_ranks = {i: r for (kind, i), r in best.items() if kind is Kind.EPISODE}
    if query.neighbours and episode_ranks:
        rows = await db.read("search/expand_neighbours", ns=ns,
                             episode_ids=sorted(episode_ranks))
        for row in rows:
            vote(Kind.EPISODE, row["id"], Match("graph", episode_ranks[row["episode_id"]],
                                                row["episode_id"]))
    fact_ranks = {i: r for (kind, i), r in best.items() if kind is Kind.FACT}
    if Kind.EPISODE in query.kinds and fact_ranks:
        rows = await db.read("search/expand_facts", ns=ns, fact_ids=sorted(fact_ranks))
        for row in rows:
            vote(Kind.EPISODE, row["id"], Match("graph", fact_ranks[row["fact_id"]],
                                                row["fact_id"]))
    # The best-ranked entity hits vote for their newest facts (a long tail of weak entity
    # matches would cost a graph read each and add only noise).
    entity_ranks = dict(sorted(((i, r) for (kind, i), r in best.items() if kind is Kind.ENTITY),
                               key=lambda item: item[1])[:EXPANDED_ENTITIES])
    if Kind.FACT in query.kinds and entity_ranks:
        # An entity hit votes for its newest facts: a hub must not flood the fusion.
        about = await provenance.facts_about(db, ns, sorted(entity_ranks),
                                             per_entity=EXPANSION_PER_ENTITY)
        for entity_id, (outgoing, incoming) in zip(sorted(entity_ranks), about, strict=True):
            for fact in outgoing + incoming:
                vote(Kind.FACT, fact.id, Match("graph", entity_ranks[entity_id], entity_id))


async def _load(db: Database, ns: Namespace, ranked: list[Hit]) -> None:
    ids: dict[Kind, list[str]] = defaultdict(list)
    for hit in ranked:
        ids[hit.kind].append(hit.id)

    async def none(_db: Database, _ns: Namespace, _ids: list[str]) -> dict[str, Any]:
        return {}

    loaders: dict[Kind, Callable[[Database, Namespace, list[str]], Awaitable[Any]]] = {
        Kind.EPISODE: episodes.by_ids, Kind.FACT: facts.by_ids,
        Kind.SUMMARY: summaries.by_ids, Kind.ENTITY: entities.by_ids}
    found: dict[Kind, dict[str, Any]] = dict(zip(Kind, await asyncio.gather(*(
        (loaders[kind] if ids[kind] else none)(db, ns, ids[kind]) for kind in Kind)),
        strict=True))
    for hit in ranked:
        item = found[hit.kind].get(hit.id)
        setattr(hit, hit.kind.value, item)


def _loaded(hit: Hit) -> bool:
    return any(x is not None for x in (hit.episode, hit.fact, hit.summary, hit.entity))
