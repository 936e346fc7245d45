"""The search pipeline: read the query; retrieve every kind and expand through the graph in
one statement; fuse; load the ranked hits in a second. Plus a lookup of the speakers the
query may name, which runs while the query is embedded.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal, assert_never

from graphmem.core.config import SearchWeights
from graphmem.core.errors import InvalidInput
from graphmem.core.namespaces import Namespace, lucene_key
from graphmem.core.time_expressions import TimeRange, asks_first, find_time_range
from graphmem.core.timeutil import require_aware, to_native
from graphmem.db.database import Database, Row
from graphmem.episodes.store import Episode
from graphmem.facts.entities import Entity
from graphmem.facts.model import Fact
from graphmem.observability import metrics
from graphmem.retrieval.embeddings import Embedder
from graphmem.retrieval.search import query as analysis
from graphmem.retrieval.search.fusion import fuse
from graphmem.retrieval.search.model import Hit, Kind, Match, SearchQuery, SearchResult
from graphmem.retrieval.search.scores import Candidate, by_best, by_range
from graphmem.retrieval.search.signals import SIGNALS, Signal
from graphmem.summaries.store import Summary

MAX_LIMIT = 100
MAX_QUERY = 1_000
# Episodes are fused from a wide pool: the session prior needs each session's best turns,
# and the time prior can lift a turn from far down the keyword list.
EPISODE_POOL = 100
EXPANDED_ENTITIES = 5
EXPANSION_PER_ENTITY = 20
# The entities a query names (weight ``named``): at most this many, each bringing its most
# similar evidence turns, at most NAMED_PER_ENTITY (a hub's hundreds of turns would flood the
# fusion).
NAMED_ENTITIES = 5
NAMED_PER_ENTITY = 20
# A namespace with fewer nodes of a kind than this scans its own vectors exactly instead of
# asking the shared index (cypher/retrieval/search/find.cypher): about 12 ms for 1,000 vectors
# on 2 busy CPUs, exact, and blind to other tenants. Above it, the index; a vector list crowded
# out by other namespaces looks again this much further (see _find), and no less far than
# VECTOR_RETRY_K.
EXACT_VECTORS_BELOW = 2_000
VECTOR_OVERFETCH = 10
VECTOR_RETRY_K = 500
_FIELDS = {Kind.FACT: "text", Kind.SUMMARY: "text", Kind.ENTITY: "name"}

Key = tuple[Kind, str]
Retriever = Literal["bm25", "vector"]  # the lists a candidate's own score is made of


@dataclass
class Retrieved:
    """What the statements found for a query, before fusion: the candidates each retriever
    voted for, the graph's links between them, and what the query was read as. ``rank``
    fuses it under any weights (the benchmark fits weights on one retrieval)."""

    candidates: dict[Key, Candidate] = field(default_factory=dict)
    links: list[tuple[Key, Key]] = field(default_factory=list)
    time_range: TimeRange | None = None
    terms: analysis.Terms = field(default_factory=lambda: analysis.Terms((), (), ()))
    ran: bool = False  # False: nothing to look for (no words, no retriever)
    earliest: bool = False  # the query asks for a first mention


async def search(db: Database, ns: Namespace, query: SearchQuery,
                 embedder: Embedder | None = None) -> SearchResult:
    found = await retrieve(db, ns, query, embedder)
    ranked = rank(found, query.weights)[:query.limit]
    hits = [Hit(c.kind, c.id, c.score, c.matches) for c in ranked]
    for hit in hits:
        for match in hit.matches:
            metrics.RETRIEVAL_HITS.labels(f"search:{match.retriever}").inc()
    await _load(db, ns, hits)
    return SearchResult([h for h in hits if _loaded(h)], found.time_range, found.terms.actors,
                        _priors(query, found.terms, found.time_range) if found.ran else ())


async def retrieve(db: Database, ns: Namespace, query: SearchQuery,
                   embedder: Embedder | None = None) -> Retrieved:
    """Every retriever's candidates and the graph's links (the weights matter here only as
    Lucene boosts: ``own_words``, ``speaker``)."""
    _check(query)
    text, time_range = _time(query)
    if not analysis.words(text):
        return Retrieved(time_range=time_range)
    speakers, vector = await asyncio.gather(
        _speakers(db, ns, text, query), _embed(db, text, query, embedder))
    found = analysis.terms(text, speakers)
    if "bm25" not in query.retrievers and vector is None:
        return Retrieved(time_range=time_range)
    row = await _find(db, ns, query, found, vector, _filters(query, datetime.now(UTC)),
                      analysis.name_candidates(text))
    candidates: dict[Key, Candidate] = {}
    votes = _votes(row, query)
    turns = _turn_scales(votes)
    for retriever, kind, rows in votes:
        _vote(candidates, retriever, kind, rows,
              turns.get(retriever, ()) if kind is not Kind.EPISODE else ())
    for candidate in candidates.values():
        candidate.key_only = candidate.kind not in query.kinds
    links = _links(row, candidates)
    _named(row["from_named"], candidates)
    return Retrieved(candidates, links, time_range, found, ran=True,
                     earliest=asks_first(query.text))


def rank(found: Retrieved, weights: SearchWeights,
         signals: Sequence[Signal] = SIGNALS) -> list[Candidate]:
    """The candidates best first under ``weights`` and ``signals`` (pure; may be called
    again)."""
    return fuse(found.candidates, found.links, weights, found.time_range, found.earliest,
                signals)


def _check(query: SearchQuery) -> None:
    if not query.text.strip() or len(query.text) > MAX_QUERY:
        raise InvalidInput(f"query must be 1-{MAX_QUERY} characters", field="query")
    if not 1 <= query.limit <= MAX_LIMIT:
        raise InvalidInput(f"limit must be between 1 and {MAX_LIMIT}", field="limit")
    for name, moment in (("from", query.start), ("to", query.end), ("validAt", query.valid_at),
                         ("referenceTime", query.reference_time)):
        if moment is not None:
            require_aware(moment, name)


def _time(query: SearchQuery) -> tuple[str, TimeRange | None]:
    """The query without its time expression, and that expression as a range (a soft prior;
    only ``from``/``to`` filter). None when the caller gave a range."""
    if query.start is not None or query.end is not None:
        return query.text, None
    found = find_time_range(query.text, query.reference_time or datetime.now(UTC))
    if found is None:
        return query.text, None
    return query.text.replace(found.expression, " "), found


async def _speakers(db: Database, ns: Namespace, text: str,
                    query: SearchQuery) -> dict[str, str]:
    """The namespace's speakers whose names occur in the query (key -> name): its word
    n-grams looked up, so a speaker whose every turn was erased is never told (a cache of
    the namespace's speakers kept them for seconds after), at the cost of a few seeks that
    run while the query is embedded."""
    if "bm25" not in query.retrievers:
        return {}
    rows = await db.read("retrieval/search/actors", ns=ns, keys=analysis.name_candidates(text))
    return {row["key"]: row["name"] for row in rows}


async def _embed(db: Database, text: str, query: SearchQuery,
                 embedder: Embedder | None) -> list[float] | None:
    if embedder is None or "vector" not in query.retrievers:
        return None
    with db.tracing.span("embed query", {"graphmem.embedder": embedder.name}):
        return (await embedder.embed_queries([text]))[0]


def _filters(query: SearchQuery, now: datetime) -> dict[str, Any]:
    return {"session_id": query.session_id, "valid_at": to_native(query.valid_at or now),
            "history": query.include_history, "start": to_native(query.start),
            "end": to_native(query.end)}


def _turn_scales(votes: list[tuple[Retriever, Kind, list[Row]]]) -> dict[Retriever, list[float]]:
    """The turns' raw scores, per retriever, that the other kinds' lists are scaled against
    when turns are searched too. Each list brought to 0..1 by its own best let the best of
    ten weak facts count as much as the best turn: a fact that met only the name in the
    question ("Melanie likes pottery" for "Where has Melanie camped?") took a place in the
    top ten from a turn that answers. On the LoCoMo dev split, an all-kinds search found
    0.801 of the evidence in its top ten against 0.819 for turns alone, and 0.795 against
    0.826 with LoCoMo's 686 observations as facts (a fact hit counting its evidence turns);
    scaled against the turns, 0.818 and 0.828. A fact still counts fully when it scores as
    well as the best turn."""
    return {retriever: [row["score"] for row in rows]
            for retriever, kind, rows in votes if kind is Kind.EPISODE and rows}


def _vote(candidates: dict[Key, Candidate], retriever: Retriever, kind: Kind,
          rows: list[Row], reference: Sequence[float] = ()) -> None:
    """``reference``: the scores this list is scaled against (``_turn_scales``); by
    default its own."""
    scored = [(row["id"], row["score"]) for row in rows]
    normalised = (by_best(scored, reference) if retriever == "bm25"
                  else by_range(scored, reference))
    for rank, row in enumerate(rows, start=1):
        candidate = _candidate(candidates, kind, row)
        match retriever:
            case "bm25":
                candidate.bm25 = normalised[row["id"]]
            case "vector":
                candidate.vector = normalised[row["id"]]
            case _:
                assert_never(retriever)
        candidate.matches.append(Match(retriever, rank))


def _candidate(candidates: dict[Key, Candidate], kind: Kind, row: Row) -> Candidate:
    candidate = candidates.get((kind, row["id"]))
    if candidate is None:
        candidate = candidates[(kind, row["id"])] = Candidate(kind, row["id"])
    candidate.session_id = candidate.session_id or row.get("session_id")
    candidate.at = candidate.at or row.get("at")
    told = row.get("told")
    if candidate.told is None and told and told[0] is not None and told[1] is not None:
        candidate.told = (told[0], told[1])
    return candidate


async def _find(db: Database, ns: Namespace, query: SearchQuery, found: analysis.Terms,
                vector: list[float] | None, filters: dict[str, Any], names: list[str]) -> Row:
    """Every retriever's list (``{kind}_bm25``, ``{kind}_vector``) and what the graph brings
    from them (``from_*``): one statement. ``names``: the query's word n-grams, for the
    entities it names.

    The vector indexes span namespaces: a small namespace's lists are exact scans of its own
    vectors; a large one's, left short by other namespaces' (or filtered) nodes, is fetched
    again further out for that kind."""
    key = lucene_key(ns)
    lucene = {}
    if "bm25" in query.retrievers:
        lucene = {kind.value: (analysis.episode_lucene(key, found, query.weights)
                               if kind is Kind.EPISODE else
                               analysis.lucene(key, _FIELDS[kind], found))
                  for kind in _retrieved_kinds(query)}
    limit = query.limit * 2
    pool = max(limit, EPISODE_POOL)
    filtered = query.session_id is not None or query.start is not None or query.end is not None
    kinds = [kind.value for kind in _retrieved_kinds(query)]
    # k is the list's own length: asking the approximate index for 50 to keep 20 cost
    # 6 ms a search and no recall on the LoCoMo dev split (0.707/0.802 both ways).
    k = dict.fromkeys((kind.value for kind in Kind), limit)
    params = {"lucene": lucene, "vector": vector, "kinds": kinds, "limit": limit, "pool": pool,
              "lucene_limit": pool * (4 if filtered else 1), "expand": _expansion(query),
              "per_entity": EXPANSION_PER_ENTITY, "names": names,
              "named_per_entity": NAMED_PER_ENTITY, "exact_below": EXACT_VECTORS_BELOW,
              "min_score": (1 + query.min_similarity) / 2, **filters}  # Neo4j: 0..1
    row = (await db.read("retrieval/search/find", ns=ns, k=k, **params))[0]
    crowded = [kind for kind in kinds
               if len(row[f"{kind}_vector"]["hits"]) < limit and row[f"{kind}_vector"]["filtered"]]
    if vector is not None and crowded:
        k.update((kind, max(k[kind] * VECTOR_OVERFETCH, VECTOR_RETRY_K)) for kind in crowded)
        row = (await db.read("retrieval/search/find", ns=ns, k=k, **params))[0]
    return row


def _retrieved_kinds(query: SearchQuery) -> tuple[Kind, ...]:
    """The kinds asked for, and facts as keys for the turns they were learned from when
    episodes are asked and ``fact_keys`` weighs them (see ``signals._fact_keys``)."""
    if (Kind.FACT not in query.kinds and Kind.EPISODE in query.kinds
            and query.weights.fact_keys > 0 and "graph" in query.retrievers):
        return (*query.kinds, Kind.FACT)
    return query.kinds


def _expansion(query: SearchQuery) -> dict[str, Any]:
    """Which links the graph retriever follows: a fact hit brings its evidence episodes, an
    entity hit its newest facts, a summary hit raises the candidate turns it covers, an
    entity the query names its evidence turns (when ``named`` weighs them); on request, an
    episode hit brings the turns just before and after it in its session."""
    on = "graph" in query.retrievers
    episodes = on and Kind.EPISODE in query.kinds
    return {"facts": episodes, "summaries": episodes,
            "entities": EXPANDED_ENTITIES if on and Kind.FACT in query.kinds else 0,
            "named": NAMED_ENTITIES if episodes and query.weights.named > 0 else 0,
            "neighbours": on and query.neighbours}


def _votes(row: Row, query: SearchQuery) -> list[tuple[Retriever, Kind, list[Row]]]:
    """(retriever, kind, rows best first), BM25 then vector, kind by kind."""
    kinds = _retrieved_kinds(query)
    return [*(("bm25", kind, row[f"{kind.value}_bm25"]) for kind in kinds),
            *(("vector", kind, row[f"{kind.value}_vector"]["hits"]) for kind in kinds)]


def _links(row: Row, candidates: dict[Key, Candidate]) -> list[tuple[Key, Key]]:
    """The candidates the graph brought, each voted for at its source's best rank, and the
    (source, brought) links fusion passes scores along."""
    best = {key: min(m.rank for m in c.matches) for key, c in candidates.items()}
    links: list[tuple[Key, Key]] = []
    for source, target, brought in ((Kind.EPISODE, Kind.EPISODE, row["from_episodes"]),
                                    (Kind.FACT, Kind.EPISODE, row["from_facts"]),
                                    (Kind.SUMMARY, Kind.EPISODE, row["from_summaries"]),
                                    (Kind.ENTITY, Kind.FACT, row["from_entities"])):
        for pair in brought:
            via = (source, pair["via"])
            _candidate(candidates, target, pair).matches.append(
                Match("graph", best[via], pair["via"]))
            links.append((via, (target, pair["id"])))
    return links


def _named(rows: list[Row], candidates: dict[Key, Candidate]) -> None:
    """The evidence turns of the entities the query names, each with its similarity to the
    query (null without a query vector: then every one counts fully), scaled over them."""
    similar = by_range((str(i), r["similarity"] or 0.0) for i, r in enumerate(rows))
    for i, pair in enumerate(rows):
        candidate = _candidate(candidates, Kind.EPISODE, pair)
        candidate.named = max(candidate.named, similar[str(i)])
        candidate.matches.append(Match("graph", pair["rank"], pair["via"]))


def _priors(query: SearchQuery, found: analysis.Terms,
            time_range: TimeRange | None) -> tuple[str, ...]:
    """What besides the words shaped the ranking, in words a person reads in a plan."""
    priors = [f"speaker: turns spoken by {name} rank higher" for name in found.actors]
    if time_range is not None and query.weights.time:
        priors.append(f"time: turns near {time_range.expression.strip()!r} rank higher")
    if Kind.EPISODE in query.kinds and query.weights.session:
        priors.append("session: turns of the best-matching sessions rank higher")
    return tuple(priors)


async def _load(db: Database, ns: Namespace, ranked: list[Hit]) -> None:
    """Attach each ranked hit's item, every kind in one statement."""
    if not ranked:
        return
    ids = {kind: [hit.id for hit in ranked if hit.kind is kind] for kind in Kind}
    row = (await db.read("retrieval/search/load", ns=ns, episode_ids=ids[Kind.EPISODE],
                         fact_ids=ids[Kind.FACT], summary_ids=ids[Kind.SUMMARY],
                         entity_ids=ids[Kind.ENTITY]))[0]
    found: dict[Kind, dict[str, Any]] = {
        Kind.EPISODE: {r["id"]: Episode.from_row(r, db) for r in row["episodes"]},
        Kind.FACT: {r["id"]: Fact.from_row(r) for r in row["facts"]},
        Kind.SUMMARY: {r["id"]: Summary.from_row(r) for r in row["summaries"]},
        Kind.ENTITY: {r["entity"]["id"]: Entity.from_row(r["entity"], r["aliases"])
                      for r in row["entities"]}}
    for hit in ranked:
        setattr(hit, hit.kind.value, found[hit.kind].get(hit.id))


def _loaded(hit: Hit) -> bool:
    return any(x is not None for x in (hit.episode, hit.fact, hit.summary, hit.entity))
