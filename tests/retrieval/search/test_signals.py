"""Signals are declared, not spelled into fusion: a new one is one declaration (pure)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from graphmem.core.config import SearchWeights
from graphmem.retrieval.search.engine import Retrieved, rank
from graphmem.retrieval.search.model import Kind
from graphmem.retrieval.search.scores import Candidate
from graphmem.retrieval.search.signals import SIGNALS, Fusing, Signal

DAY = datetime(2023, 6, 3, tzinfo=UTC)
NO_PRIORS = SearchWeights(session=0.0, time=0.0)


def _latest(episodes: Sequence[Candidate], fusing: Fusing) -> list[float]:
    """A trivial signal: the turn said last scores 1, the others nothing."""
    last = max(episodes, key=lambda c: c.at or DAY)
    return [1.0 if c is last else 0.0 for c in episodes]


LATEST = Signal("latest", lambda weights: 0.5, _latest)


def _found() -> Retrieved:
    early = Candidate(Kind.EPISODE, "early", bm25=1.0, session_id="a", at=DAY)
    late = Candidate(Kind.EPISODE, "late", bm25=0.8, session_id="b", at=DAY + timedelta(days=9))
    return Retrieved({(c.kind, c.id): c for c in (early, late)}, [], ran=True)


def test_a_declared_signal_changes_the_ranking() -> None:
    assert [c.id for c in rank(_found(), NO_PRIORS)] == ["early", "late"]
    ranked = rank(_found(), NO_PRIORS, (*SIGNALS, LATEST))
    assert [(c.id, c.score) for c in ranked] == [("late", 0.8 + 0.5), ("early", 1.0)]


def test_an_unweighed_or_silent_signal_changes_nothing() -> None:
    unweighed = Signal("latest", lambda weights: 0.0, _latest)
    silent = Signal("latest", lambda weights: 0.5, lambda episodes, fusing: None)
    for signal in (unweighed, silent):
        ranked = rank(_found(), NO_PRIORS, (*SIGNALS, signal))
        assert [(c.id, c.score) for c in ranked] == [("early", 1.0), ("late", 0.8)]


def test_a_signal_scores_only_its_kinds() -> None:
    found = _found()
    fact = Candidate(Kind.FACT, "fact", bm25=0.5)
    found.candidates[(Kind.FACT, "fact")] = fact
    everything = Signal("everything", lambda weights: 1.0,
                        lambda cs, fusing: [1.0 for _ in cs], frozenset({Kind.FACT}))
    ranked = {c.id: c.score for c in rank(found, NO_PRIORS, (everything,))}
    assert ranked == {"early": 1.0, "late": 0.8, "fact": 0.5 * NO_PRIORS.fact + 1.0}


def test_every_signal_is_declared_once_with_its_weight_setting() -> None:
    names = [s.name for s in SIGNALS]
    assert names == ["fact_keys", "named", "session", "time", "event", "earliest"]
    weights = SearchWeights(fact_keys=0.11, named=0.12, session=0.13, time=0.14, event=0.15,
                            earliest=0.16)
    assert {s.name: s.weight(weights) for s in SIGNALS} == {
        name: getattr(weights, name) for name in names}
