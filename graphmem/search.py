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

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from graphmem import metrics, tracing
from graphmem.db import Database
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

    retriever: str  # bm25, vector, or graph (expanded from another hit)
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
    lucene = ({kind.value: _lucene(ns, kind, words) for kind in query.kinds}
              if words and "bm25" in query.retrievers else {})
    vector = None
    if words and embedder is not None and "vector" in query.retrievers:
        with tracing.span("embed query", {"graphmem.embedder": embedder.name}):
            vector = (await embedder.embed([text]))[0]
    for retriever, kind, ids in await _retrieve(db, ns, query, lucene, vector, filters):
        for rank, hit_id in enumerate(ids, start=1):
            vote(kind, hit_id, Match(retriever, rank))
    if "graph" in query.retrievers:
        await _expand(db, ns, query, hits, vote, filters)
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


# Per kind: the Lucene fields of its fulltext index to match, with their boosts. An episode
# matches on its own words first and on the turn before it (its context) second.
_LUCENE_FIELDS = {Kind.EPISODE: (("content", 2), ("context", 1)), Kind.FACT: (("text", 1),),
                  Kind.SUMMARY: (("text", 1),), Kind.ENTITY: (("name", 1),)}
EXPANDED_ENTITIES = 5
EXPANSION_PER_ENTITY = 20
VECTOR_OVERFETCH = 10  # how much further a crowded vector list looks (see _retrieve)
# The vector indexes are approximate (HNSW) and k also sets how wide they search: a list of
# 20 still looks at no fewer than 50 candidates.
VECTOR_MIN_K = 50


def _lucene(ns: Namespace, kind: Kind, words: list[str]) -> str:
    terms = " ".join(words)
    matched = " OR ".join(f"{field}:({terms})^{boost}" for field, boost in _LUCENE_FIELDS[kind])
    return f'ns:"{ns}" AND ({matched})'


async def _retrieve(db: Database, ns: Namespace, query: SearchQuery, lucene: dict[str, str],
                    vector: list[float] | None,
                    filters: dict[str, Any]) -> list[tuple[str, Kind, list[str]]]:
    """(retriever, kind, ids best first) for BM25 then vector, kind by kind: one statement.

    The vector indexes span namespaces: a list left short by other namespaces' (or filtered)
    nodes is fetched again, ``VECTOR_OVERFETCH`` times further out."""
    if not lucene and vector is None:
        return []
    limit = query.limit * 2
    params = {"limit": limit, "min_score": (1 + query.min_similarity) / 2,  # Neo4j: 0..1
              **filters}
    kinds = [kind.value for kind in query.kinds]
    k = max(limit, VECTOR_MIN_K)
    row = (await db.read("search/retrieve", ns=ns, lucene=lucene, vector=vector, kinds=kinds,
                         k=k, **params))[0]
    crowded = [kind for kind in kinds
               if len(row[f"{kind}_vector"]["ids"]) < limit and row[f"{kind}_vector"]["filtered"]]
    if crowded:
        further = (await db.read("search/retrieve", ns=ns, lucene={}, vector=vector,
                                 kinds=crowded, k=k * VECTOR_OVERFETCH, **params))[0]
        row.update((f"{kind}_vector", further[f"{kind}_vector"]) for kind in crowded)
    return [*(("bm25", kind, row[f"{kind.value}_bm25"]) for kind in query.kinds),
            *(("vector", kind, row[f"{kind.value}_vector"]["ids"]) for kind in query.kinds)]


async def _expand(db: Database, ns: Namespace, query: SearchQuery,
                  hits: dict[tuple[Kind, str], Hit], vote: Vote, filters: dict[str, Any]) -> None:
    """A fact hit brings its evidence episodes; an entity hit its newest facts; on request,
    an episode hit the turns just before and after it in its session. One statement."""
    best = {key: min(m.rank for m in hit.matches) for key, hit in hits.items()}
    episode_ranks = {i: r for (kind, i), r in best.items() if kind is Kind.EPISODE}
    fact_ranks = {i: r for (kind, i), r in best.items() if kind is Kind.FACT}
    # Only the best-ranked entity hits expand: a long tail of weak entity matches would cost
    # a graph read each and add only noise.
    entity_ranks = dict(sorted(((i, r) for (kind, i), r in best.items() if kind is Kind.ENTITY),
                               key=lambda item: item[1])[:EXPANDED_ENTITIES])
    expand_from = {"fact_ids": sorted(fact_ranks) if Kind.EPISODE in query.kinds else [],
                   "entity_ids": sorted(entity_ranks) if Kind.FACT in query.kinds else [],
                   "episode_ids": sorted(episode_ranks) if query.neighbours else []}
    if not any(expand_from.values()):
        return
    row = (await db.read("search/expand", ns=ns, **expand_from,
                         per_entity=EXPANSION_PER_ENTITY, valid_at=filters["valid_at"],
                         history=filters["history"]))[0]
    for kind, via_ranks, brought in ((Kind.EPISODE, episode_ranks, row["from_episodes"]),
                                     (Kind.EPISODE, fact_ranks, row["from_facts"]),
                                     (Kind.FACT, entity_ranks, row["from_entities"])):
        for pair in brought:
            vote(kind, pair["id"], Match("graph", via_ranks[pair["via"]], pair["via"]))


async def _load(db: Database, ns: Namespace, ranked: list[Hit]) -> None:
    """Attach each ranked hit's item, every kind in one statement."""
    if not ranked:
        return
    ids = {kind: [hit.id for hit in ranked if hit.kind is kind] for kind in Kind}
    row = (await db.read("search/load", ns=ns, episode_ids=ids[Kind.EPISODE],
                         fact_ids=ids[Kind.FACT], summary_ids=ids[Kind.SUMMARY],
                         entity_ids=ids[Kind.ENTITY]))[0]
    found: dict[Kind, dict[str, Any]] = {
        Kind.EPISODE: {r["id"]: Episode.from_row(r) for r in row["episodes"]},
        Kind.FACT: {r["id"]: Fact.from_row(r) for r in row["facts"]},
        Kind.SUMMARY: {r["id"]: Summary.from_row(r) for r in row["summaries"]},
        Kind.ENTITY: {r["entity"]["id"]: Entity.from_row(r["entity"], r["aliases"])
                      for r in row["entities"]}}
    for hit in ranked:
        setattr(hit, hit.kind.value, found[hit.kind].get(hit.id))


def _loaded(hit: Hit) -> bool:
    return any(x is not None for x in (hit.episode, hit.fact, hit.summary, hit.entity))
