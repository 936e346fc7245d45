"""Fusion: one score per hit from the retrievers' normalised scores, what the graph passes
on, and the conversation's priors (the session a turn is in, the time the query names).

Every list is brought to 0..1 before it is weighed, so each retriever's best hit counts the
same whatever its raw scale; ranks alone (reciprocal rank fusion) let the twentieth vector
neighbour outrank the first keyword hit, which on real conversations left the fused top ten
worse than BM25 alone. Weights are settings (``config.SearchWeights``).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from graphmem.core.config import SearchWeights
from graphmem.core.time_expressions import TimeRange
from graphmem.retrieval.search.model import Kind, Match

SESSION_TOP = 3  # a session scores by its best few turns: one lucky word is not a topic
EARLIEST_AMONG = 10  # "first": the earliest said of this many best turns gains
SUMMARY_BELOW = 0.999  # a summary's score, at most, against the best turn it covers


@dataclass
class Candidate:
    kind: Kind
    id: str
    matches: list[Match] = field(default_factory=list)
    bm25: float = 0.0  # 0..1, of the best keyword hit of its kind
    vector: float = 0.0  # 0..1, between the list's farthest and nearest neighbour
    graph: float = 0.0  # the best score a hit that brought it had
    named: float = 0.0  # episodes: 0..1, among the turns linked to an entity the query names
    keyed: float = 0.0  # episodes: the best score of a fact it is evidence of
    key_only: bool = False  # facts: retrieved as keys for their turns, not asked for as hits
    session_id: str | None = None  # episodes: for the session prior
    at: datetime | None = None  # episodes: for the time prior (when it was said)
    told: tuple[datetime, datetime] | None = None  # episodes: the time its words tell of
    score: float = 0.0


def by_best(scored: Iterable[tuple[str, float]]) -> dict[str, float]:
    """Scores over the best one (BM25 has no fixed scale)."""
    pairs = list(scored)
    best = max((s for _, s in pairs), default=0.0)
    return {i: s / best for i, s in pairs} if best > 0 else {i: 0.0 for i, _ in pairs}


def by_range(scored: Iterable[tuple[str, float]]) -> dict[str, float]:
    """Similarities as the share of the way from the list's farthest to its nearest one.
    Embedders differ in where their similarities lie (WordLlama's spread over 0.1-0.5, a
    sentence transformer's crowd into 0.5-0.9): only the spread within the list says which
    neighbour is nearer, so no embedder's scale decides its weight."""
    pairs = list(scored)
    low = min((s for _, s in pairs), default=0.0)
    span = max((s for _, s in pairs), default=0.0) - low
    return {i: (s - low) / span if span > 0 else 1.0 for i, s in pairs}


def kind_weights(weights: SearchWeights) -> dict[Kind, float]:
    return {Kind.EPISODE: 1.0, Kind.FACT: weights.fact, Kind.SUMMARY: weights.summary,
            Kind.ENTITY: weights.entity}


def own_score(candidate: Candidate, weights: SearchWeights, of_kind: float) -> float:
    """What its own retrievers say of it, weighed by its kind's weight ``of_kind``."""
    return of_kind * (weights.bm25 * candidate.bm25 + weights.vector * candidate.vector)


def fuse(candidates: dict[tuple[Kind, str], Candidate],
         links: Iterable[tuple[tuple[Kind, str], tuple[Kind, str]]],
         weights: SearchWeights, time_range: TimeRange | None,
         earliest: bool = False) -> list[Candidate]:
    """Score every candidate and return them best first. ``links``: (hit, what it brought),
    for facts to their evidence, entities to their facts, summaries to the turns they cover.
    ``earliest``: the query asks for a first mention."""
    of_kind = kind_weights(weights)
    for c in candidates.values():  # fused again under other weights: start from nothing
        c.graph = c.keyed = 0.0
    own = {key: own_score(c, weights, of_kind[c.kind]) for key, c in candidates.items()}
    links = list(links)
    for source, target in links:
        if source in own and target in candidates and not candidates[source].key_only:
            candidates[target].graph = max(candidates[target].graph, own[source])
    _keyed(candidates, links, weights)
    for key, c in candidates.items():
        c.score = (own[key] + of_kind[c.kind] * weights.graph * c.graph
                   + weights.fact_keys * c.keyed + weights.named * c.named)
    episodes = [c for c in candidates.values() if c.kind is Kind.EPISODE]
    if weights.session:
        sessions = session_scores(episodes)
        for c in episodes:
            c.score += weights.session * sessions.get(c.session_id or "", 0.0)
    if time_range is not None:
        for c in episodes:
            c.score += weights.time * closeness(c.at, time_range)
            if c.told is not None:
                c.score += weights.event * overlap(c.told, time_range)
    if weights.earliest and earliest:
        _earliest_first(episodes, weights.earliest)
    _below_what_they_cover(candidates, links)
    ranked = sorted((c for c in candidates.values() if not c.key_only),
                    key=lambda c: (-c.score, c.kind.value, c.id))
    return per_session(ranked, weights.per_session) if weights.per_session else ranked


def _keyed(candidates: dict[tuple[Kind, str], Candidate],
           links: list[tuple[tuple[Kind, str], tuple[Kind, str]]],
           weights: SearchWeights) -> None:
    """Facts as extra keys: a turn takes the best own score (unweighed by kind) of the facts
    it is evidence of, hits or keys alike, so a turn whose words miss the question is still
    found by the fact learned from it ("Melanie likes pottery" for "What does Melanie
    enjoy?")."""
    for source, target in links:
        fact, turn = candidates.get(source), candidates.get(target)
        if fact is not None and turn is not None and fact.kind is Kind.FACT:
            turn.keyed = max(turn.keyed, own_score(fact, weights, 1.0))


def _earliest_first(episodes: list[Candidate], weight: float) -> None:
    """"When did she first …", "since when": of the best ``EARLIEST_AMONG`` turns, the one
    said first gains ``weight``, the last said nothing (the first mention, not the latest)."""
    best = sorted((c for c in episodes if c.at is not None),
                  key=lambda c: (-c.score, c.id))[:EARLIEST_AMONG]
    in_time = sorted(best, key=lambda c: (c.at, c.id))
    for i, c in enumerate(in_time):
        c.score += weight * (1 - i / max(len(in_time) - 1, 1))


def per_session(ranked: list[Candidate], cap: int) -> list[Candidate]:
    """At most ``cap`` turns of one session before every other session's turns have had
    their place: evidence that spans sessions is not crowded out by one session's
    neighbours (the rest follow, in order)."""
    seen: dict[str, int] = defaultdict(int)
    first, rest = [], []
    for c in ranked:
        if c.kind is Kind.EPISODE and c.session_id is not None:
            seen[c.session_id] += 1
            if seen[c.session_id] > cap:
                rest.append(c)
                continue
        first.append(c)
    return first + rest


def _below_what_they_cover(candidates: dict[tuple[Kind, str], Candidate],
                           links: list[tuple[tuple[Kind, str], tuple[Kind, str]]]) -> None:
    """A summary points into its turns: it ranks just below the best of them that was found,
    so it adds context after them instead of taking their place."""
    best: dict[tuple[Kind, str], float] = {}
    for source, target in links:
        if source[0] is Kind.SUMMARY and target in candidates:
            best[source] = max(best.get(source, 0.0), candidates[target].score)
    for key, score in best.items():
        summary = candidates[key]
        summary.score = min(summary.score, score * SUMMARY_BELOW)


def session_scores(episodes: list[Candidate]) -> dict[str, float]:
    """Each session's best ``SESSION_TOP`` turn scores summed, over the best session's: a
    question is usually about one conversation, and its other turns are the likely answers."""
    per: dict[str, list[float]] = defaultdict(list)
    for c in episodes:
        if c.session_id is not None:
            per[c.session_id].append(c.score)
    summed = {s: sum(sorted(v, reverse=True)[:SESSION_TOP]) for s, v in per.items()}
    return by_best(summed.items())


def overlap(told: tuple[datetime, datetime], time_range: TimeRange) -> float:
    """``closeness`` for a span: 1 when it meets the range, decaying with the gap."""
    start, end = told
    if start < time_range.end and time_range.start < end:
        return 1.0
    return max(closeness(start, time_range), closeness(end - timedelta(microseconds=1),
                                                        time_range))


def closeness(at: datetime | None, time_range: TimeRange) -> float:
    """1 inside the range, then decaying by the range's own width (at least a day): "on 3
    June" still prefers 4 June over August, and never excludes anything."""
    if at is None:
        return 0.0
    if time_range.start <= at < time_range.end:
        return 1.0
    width = max(time_range.end - time_range.start, timedelta(days=1))
    gap = time_range.start - at if at < time_range.start else at - time_range.end
    return math.exp(-(gap / width))
