"""Fusion: one score per hit from the retrievers' normalised scores (``scores``), what the
graph passes on, and the declared signals (``signals``: the session a turn is in, the time
the query names, …), each weighed by its setting (``config.SearchWeights``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from graphmem.core.config import SearchWeights
from graphmem.core.time_expressions import TimeRange
from graphmem.retrieval.search.model import Kind
from graphmem.retrieval.search.scores import Candidate, by_best, by_range, kind_weights, own_score
from graphmem.retrieval.search.signals import SIGNALS, Fusing, Signal, closeness

__all__ = ["Candidate", "by_best", "by_range", "closeness", "fuse", "kind_weights",
           "own_score", "per_session"]

SUMMARY_BELOW = 0.999  # a summary's score, at most, against the best turn it covers


def fuse(candidates: dict[tuple[Kind, str], Candidate],
         links: Iterable[tuple[tuple[Kind, str], tuple[Kind, str]]],
         weights: SearchWeights, time_range: TimeRange | None,
         earliest: bool = False, signals: Sequence[Signal] = SIGNALS) -> list[Candidate]:
    """Score every candidate and return them best first. ``links``: (hit, what it brought),
    for facts to their evidence, entities to their facts, summaries to the turns they cover.
    ``earliest``: the query asks for a first mention. ``signals``: added in order, each
    weighed by its setting."""
    of_kind = kind_weights(weights)
    for c in candidates.values():  # fused again under other weights: start from nothing
        c.graph = c.keyed = 0.0
    own = {key: own_score(c, weights, of_kind[c.kind]) for key, c in candidates.items()}
    links = list(links)
    for source, target in links:
        if source in own and target in candidates and not candidates[source].key_only:
            candidates[target].graph = max(candidates[target].graph, own[source])
    for key, c in candidates.items():
        c.score = own[key] + of_kind[c.kind] * weights.graph * c.graph
    fusing = Fusing(candidates, links, weights, time_range, earliest)
    for signal in signals:
        _add(signal, fusing)
    _below_what_they_cover(candidates, links)
    ranked = sorted((c for c in candidates.values() if not c.key_only),
                    key=lambda c: (-c.score, c.kind.value, c.id))
    return per_session(ranked, weights.per_session) if weights.per_session else ranked


def _add(signal: Signal, fusing: Fusing) -> None:
    """The signal's weighed score, added to each candidate of its kinds (unweighed: none)."""
    weight = signal.weight(fusing.weights)
    if not weight:
        return
    scored = [c for c in fusing.candidates.values() if c.kind in signal.kinds]
    values = signal.score(scored, fusing)
    if values is None:
        return
    for c, value in zip(scored, values, strict=True):
        c.score += weight * value


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
