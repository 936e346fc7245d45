"""A candidate and its own score: each retriever's list brought to 0..1 before it is weighed,
so each retriever's best hit counts the same whatever its raw scale; ranks alone (reciprocal
rank fusion) let the twentieth vector neighbour outrank the first keyword hit, which on real
conversations left the fused top ten worse than BM25 alone."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from graphmem.core.config import SearchWeights
from graphmem.retrieval.search.model import Kind, Match


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


def by_best(scored: Iterable[tuple[str, float]],
            reference: Sequence[float] = ()) -> dict[str, float]:
    """Scores over the best one (BM25 has no fixed scale); with ``reference``, over the best
    of those (another list's scores: see ``engine.retrieve``), at most 1."""
    pairs = list(scored)
    best = max(reference or [s for _, s in pairs], default=0.0)
    return {i: min(s / best, 1.0) for i, s in pairs} if best > 0 else {i: 0.0 for i, _ in pairs}


def by_range(scored: Iterable[tuple[str, float]],
             reference: Sequence[float] = ()) -> dict[str, float]:
    """Similarities as the share of the way from the list's farthest to its nearest one.
    Embedders differ in where their similarities lie (WordLlama's spread over 0.1-0.5, a
    sentence transformer's crowd into 0.5-0.9): only the spread within the list says which
    neighbour is nearer, so no embedder's scale decides its weight. With ``reference``, the
    way is that list's, and a similarity beyond it counts 0 or 1."""
    pairs = list(scored)
    scale = reference or [s for _, s in pairs]
    low = min(scale, default=0.0)
    span = max(scale, default=0.0) - low
    if span <= 0:
        return {i: 1.0 if s >= low else 0.0 for i, s in pairs}
    return {i: min(max((s - low) / span, 0.0), 1.0) for i, s in pairs}


def kind_weights(weights: SearchWeights) -> dict[Kind, float]:
    return {Kind.EPISODE: 1.0, Kind.FACT: weights.fact, Kind.SUMMARY: weights.summary,
            Kind.ENTITY: weights.entity}


def own_score(candidate: Candidate, weights: SearchWeights, of_kind: float) -> float:
    """What its own retrievers say of it, weighed by its kind's weight ``of_kind``."""
    return of_kind * (weights.bm25 * candidate.bm25 + weights.vector * candidate.vector)
