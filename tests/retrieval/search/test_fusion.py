"""Fusion: normalised scores, the graph, the session and time priors (pure)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graphmem.core.config import SearchWeights
from graphmem.core.time_expressions import TimeRange
from graphmem.retrieval.search.fusion import Candidate, by_best, by_range, closeness, fuse
from graphmem.retrieval.search.model import Kind

DAY = datetime(2023, 6, 3, tzinfo=UTC)
NO_PRIORS = SearchWeights(session=0.0, time=0.0)


def episode(i: str, bm25: float = 0.0, vector: float = 0.0, session: str = "s1",
            at: datetime = DAY) -> Candidate:
    return Candidate(Kind.EPISODE, i, bm25=bm25, vector=vector, session_id=session, at=at)


def test_scores_are_brought_to_one_scale() -> None:
    assert by_best([("a", 12.0), ("b", 3.0)]) == {"a": 1.0, "b": 0.25}
    scaled = by_range([("a", 0.9), ("b", 0.75), ("c", 0.6)])
    assert scaled["a"] == 1.0 and abs(scaled["b"] - 0.5) < 1e-9 and scaled["c"] == 0.0
    # A crowded scale (a sentence transformer's) spreads as wide as a loose one:
    assert by_range([("a", 0.91), ("b", 0.9), ("c", 0.89)]) == pytest.approx(
        {"a": 1.0, "b": 0.5, "c": 0.0})
    assert by_range([("only", 0.7)]) == {"only": 1.0}


def test_another_list_can_set_the_scale() -> None:
    """Facts scaled against the turns' lists: the best fact is worth the best turn only if
    it scores as well; beyond the turns' list it counts 0 or 1."""
    assert by_best([("f", 3.0), ("g", 15.0)], reference=[12.0, 6.0]) == {"f": 0.25, "g": 1.0}
    assert by_range([("f", 0.75), ("g", 0.5), ("h", 0.95)], reference=[0.9, 0.6]) == \
        pytest.approx({"f": 0.5, "g": 0.0, "h": 1.0})
    assert by_range([("f", 0.7), ("g", 0.6)], reference=[0.65]) == {"f": 1.0, "g": 0.0}


def test_the_best_keyword_hit_beats_a_weak_vector_neighbour() -> None:
    # Rank fusion let the 20th vector neighbour outrank the 1st BM25 hit; scores do not.
    ranked = fuse({(Kind.EPISODE, "kw"): episode("kw", bm25=1.0),
                   (Kind.EPISODE, "vec"): episode("vec", bm25=0.1, vector=0.05)},
                  [], SearchWeights(vector=2.0, session=0.0, time=0.0), None)
    assert [c.id for c in ranked] == ["kw", "vec"]


def test_a_session_lifts_its_turns() -> None:
    candidates = {(Kind.EPISODE, i): c for i, c in (
        ("a1", episode("a1", bm25=0.5, session="a")), ("a2", episode("a2", bm25=0.5, session="a")),
        ("b1", episode("b1", bm25=0.55, session="b")))}
    ranked = fuse(candidates, [], SearchWeights(session=0.5, time=0.0), None)
    assert ranked[0].session_id == "a" and ranked[-1].id == "b1"
    assert fuse(candidates, [], NO_PRIORS, None)[0].id == "b1"


def test_time_is_a_soft_prior() -> None:
    june = TimeRange(DAY, DAY + timedelta(days=1), "on 3 June, 2023")
    assert closeness(DAY + timedelta(hours=5), june) == 1.0
    assert 0.3 < closeness(DAY + timedelta(days=2), june) < 1.0
    assert closeness(DAY - timedelta(days=60), june) < 1e-6
    assert closeness(None, june) == 0.0
    far = episode("far", bm25=1.0, at=DAY - timedelta(days=400))
    near = episode("near", bm25=0.8, session="s2")
    ranked = fuse({(Kind.EPISODE, "far"): far, (Kind.EPISODE, "near"): near}, [],
                  SearchWeights(session=0.0, time=0.5), june)
    assert [c.id for c in ranked] == ["near", "far"]  # lifted, and nothing filtered out


def test_a_fact_hit_raises_its_evidence() -> None:
    candidates = {(Kind.FACT, "f"): Candidate(Kind.FACT, "f", bm25=1.0),
                  (Kind.EPISODE, "e1"): episode("e1", bm25=0.3),
                  (Kind.EPISODE, "e2"): episode("e2", bm25=0.4)}
    ranked = fuse(candidates, [((Kind.FACT, "f"), (Kind.EPISODE, "e1"))], NO_PRIORS, None)
    order = [c.id for c in ranked if c.kind is Kind.EPISODE]
    assert order == ["e1", "e2"]


def test_a_summary_ranks_below_the_turns_it_covers() -> None:
    candidates = {(Kind.SUMMARY, "s"): Candidate(Kind.SUMMARY, "s", bm25=1.0),
                  (Kind.EPISODE, "e"): episode("e", bm25=0.2),
                  (Kind.EPISODE, "other"): episode("other", bm25=0.9, session="s2")}
    ranked = fuse(candidates, [((Kind.SUMMARY, "s"), (Kind.EPISODE, "e"))],
                  SearchWeights(summary=1.0, session=0.0, time=0.0), None)
    order = [c.id for c in ranked]
    assert order.index("e") < order.index("s")  # raised by it, then the summary for context


def test_a_turn_matches_a_time_by_what_it_tells_of() -> None:
    # Said in September, telling of April: "in April" finds it by its event time.
    april = TimeRange(datetime(2023, 4, 1, tzinfo=UTC), datetime(2023, 5, 1, tzinfo=UTC),
                      "in April")
    told = Candidate(Kind.EPISODE, "told", bm25=0.5, session_id="s2",
                     at=datetime(2023, 9, 10, tzinfo=UTC),
                     told=(datetime(2023, 4, 1, tzinfo=UTC), datetime(2023, 5, 1, tzinfo=UTC)))
    wordy = Candidate(Kind.EPISODE, "wordy", bm25=1.0, session_id="s1",
                      at=datetime(2023, 9, 1, tzinfo=UTC))
    pair = {(Kind.EPISODE, "told"): told, (Kind.EPISODE, "wordy"): wordy}
    weights = SearchWeights(session=0.0, time=0.5, event=1.0)
    assert [c.id for c in fuse(pair, [], weights, april)] == ["told", "wordy"]
    # Without the event prior, the words win: the two were said equally far from April.
    unweighted = weights.model_copy(update={"event": 0.0})
    assert [c.id for c in fuse(pair, [], unweighted, april)] == ["wordy", "told"]


def test_a_first_mention_question_prefers_the_earliest_of_the_best() -> None:
    early = episode("early", bm25=0.8, session="s1", at=DAY)
    late = episode("late", bm25=1.0, session="s2", at=DAY + timedelta(days=60))
    pair = {(Kind.EPISODE, "early"): early, (Kind.EPISODE, "late"): late}
    weights = NO_PRIORS.model_copy(update={"earliest": 0.5})
    assert [c.id for c in fuse(pair, [], weights, None, earliest=True)] == ["early", "late"]
    # Only when the question asks for a first mention:
    assert [c.id for c in fuse(pair, [], weights, None)] == ["late", "early"]


def test_a_session_cap_lets_other_sessions_in() -> None:
    turns = {(Kind.EPISODE, f"a{i}"): episode(f"a{i}", bm25=1.0 - i / 10, session="a")
             for i in range(4)}
    turns[(Kind.EPISODE, "b0")] = episode("b0", bm25=0.5, session="b")
    capped = fuse(turns, [], NO_PRIORS.model_copy(update={"per_session": 2}), None)
    assert [c.id for c in capped] == ["a0", "a1", "b0", "a2", "a3"]  # the rest still follow
    uncapped = fuse(turns, [], NO_PRIORS, None)
    assert [c.id for c in uncapped] == ["a0", "a1", "a2", "a3", "b0"]


def test_a_turn_linked_to_a_named_entity_gains_its_own_signal() -> None:
    linked = episode("linked", bm25=0.2, session="a")
    linked.named = 1.0
    wordy = episode("wordy", bm25=0.5, session="b")
    pair = {(Kind.EPISODE, "linked"): linked, (Kind.EPISODE, "wordy"): wordy}
    assert [c.id for c in fuse(pair, [], NO_PRIORS, None)] == ["wordy", "linked"]
    named = NO_PRIORS.model_copy(update={"named": 0.5})
    ranked = fuse(pair, [], named, None)
    assert [c.id for c in ranked] == ["linked", "wordy"]
    assert ranked[0].score == pytest.approx(0.2 + 0.5) and ranked[1].score == 0.5


def test_a_key_fact_lends_its_score_to_its_turns_and_is_no_hit() -> None:
    def candidates() -> dict[tuple[Kind, str], Candidate]:
        key = Candidate(Kind.FACT, "f", bm25=1.0, key_only=True)
        return {(Kind.FACT, "f"): key, (Kind.EPISODE, "learned"): episode("learned", bm25=0.1),
                (Kind.EPISODE, "other"): episode("other", bm25=0.4, session="s2")}
    link = [((Kind.FACT, "f"), (Kind.EPISODE, "learned"))]
    plain = fuse(candidates(), link, NO_PRIORS, None)
    # Off (the default), a key changes nothing: not even through the graph weight.
    assert [c.id for c in plain] == ["other", "learned"] and plain[1].graph == 0.0
    keyed = fuse(candidates(), link, NO_PRIORS.model_copy(update={"fact_keys": 0.5}), None)
    assert [c.id for c in keyed] == ["learned", "other"]
    assert keyed[0].keyed == 1.0 and keyed[1].keyed == 0.0  # only the turn it was learned from
    assert keyed[0].score == pytest.approx(0.1 + 0.5)
