"""Signals: what lifts a candidate besides its own retrievers' words and vectors and what the
graph passes on to it. Each is declared once, in ``SIGNALS``: its name, the setting that
weighs it (a field of ``SearchWeights``) and its scoring function; fusion adds each weighed
score in the order declared, so a new signal is one declaration here (and its weight).

A scoring function is given the candidates of the kinds the signal scores and what fusion
knows (``Fusing``), and returns a score per candidate (0 for none), or None when the query
gives it nothing to say (no time named, no first mention asked). A signal is read after the
ones before it: the session prior sums its turns' scores so far, "first" picks among the best.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from graphmem.core.config import SearchWeights
from graphmem.core.time_expressions import TimeRange
from graphmem.retrieval.search.model import Kind
from graphmem.retrieval.search.scores import Candidate, by_best, own_score

SESSION_TOP = 3  # a session scores by its best few turns: one lucky word is not a topic
EARLIEST_AMONG = 10  # "first": the earliest said of this many best turns gains

Key = tuple[Kind, str]


@dataclass(frozen=True)
class Fusing:
    """What fusion knows when it asks a signal: every candidate, the graph's (source,
    brought) links, the weights, the time the query names and whether it asks for a first
    mention."""

    candidates: Mapping[Key, Candidate]
    links: Sequence[tuple[Key, Key]]
    weights: SearchWeights
    time_range: TimeRange | None = None
    earliest: bool = False


Scoring = Callable[[Sequence[Candidate], Fusing], Sequence[float] | None]


@dataclass(frozen=True)
class Signal:
    name: str
    weight: Callable[[SearchWeights], float]  # the setting that weighs it
    score: Scoring
    kinds: frozenset[Kind] = frozenset({Kind.EPISODE})  # the candidates it scores


def _named(episodes: Sequence[Candidate], fusing: Fusing) -> list[float]:
    """Turns linked to an entity the query names (scored by the engine, ``Candidate.named``)."""
    return [c.named for c in episodes]


def _fact_keys(episodes: Sequence[Candidate], fusing: Fusing) -> list[float]:
    """Facts as extra keys: a turn takes the best own score (unweighed by kind) of the facts
    it is evidence of, hits or keys alike, so a turn whose words miss the question is still
    found by the fact learned from it ("Melanie likes pottery" for "What does Melanie
    enjoy?")."""
    candidates = fusing.candidates
    for source, target in fusing.links:
        fact, turn = candidates.get(source), candidates.get(target)
        if fact is not None and turn is not None and fact.kind is Kind.FACT:
            turn.keyed = max(turn.keyed, own_score(fact, fusing.weights, 1.0))
    return [c.keyed for c in episodes]


def _session(episodes: Sequence[Candidate], fusing: Fusing) -> list[float]:
    sessions = session_scores(episodes)
    return [sessions.get(c.session_id or "", 0.0) for c in episodes]


def _time(episodes: Sequence[Candidate], fusing: Fusing) -> list[float] | None:
    time_range = fusing.time_range
    if time_range is None:
        return None
    return [closeness(c.at, time_range) for c in episodes]


def _event(episodes: Sequence[Candidate], fusing: Fusing) -> list[float] | None:
    time_range = fusing.time_range
    if time_range is None:
        return None
    return [overlap(c.told, time_range) if c.told is not None else 0.0 for c in episodes]


def _earliest(episodes: Sequence[Candidate], fusing: Fusing) -> list[float] | None:
    """"When did she first …", "since when": of the best ``EARLIEST_AMONG`` turns, the one
    said first gains its full weight, the last said nothing (the first mention, not the
    latest)."""
    if not fusing.earliest:
        return None
    best = sorted((c for c in episodes if c.at is not None),
                  key=lambda c: (-c.score, c.id))[:EARLIEST_AMONG]
    in_time = sorted(best, key=lambda c: (c.at, c.id))
    gains = {id(c): 1 - i / max(len(in_time) - 1, 1) for i, c in enumerate(in_time)}
    return [gains.get(id(c), 0.0) for c in episodes]


SIGNALS: tuple[Signal, ...] = (
    Signal("fact_keys", lambda w: w.fact_keys, _fact_keys),
    Signal("named", lambda w: w.named, _named),
    Signal("session", lambda w: w.session, _session),
    Signal("time", lambda w: w.time, _time),
    Signal("event", lambda w: w.event, _event),
    Signal("earliest", lambda w: w.earliest, _earliest),
)


def session_scores(episodes: Sequence[Candidate]) -> dict[str, float]:
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
