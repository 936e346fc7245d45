"""The conflict-resolution planner (``resolution.plan`` and ``settle``), without a database.

Worked examples state the promises one at a time; a reference model checks ``plan`` over
random believed sets and batches. The model works on time as a set of whole-day cells (no
interval arithmetic) and restates the rules from the policy docs; it calls nothing it checks.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from graphmem.facts import resolution
from graphmem.facts.intervals import Interval
from graphmem.facts.model import FactStatus, Outcome, Source
from graphmem.facts.policies import Cardinality, Policy, Strategy

T0 = datetime(2026, 1, 1, tzinfo=UTC)
ACTIVE, DISPUTED = FactStatus.ACTIVE, FactStatus.DISPUTED


def day(n: int | None) -> datetime | None:
    return None if n is None else T0 + timedelta(days=n)


def span(start: int | None, end: int | None) -> Interval:
    return Interval(day(start), day(end))


def claim(obj: str, start: int | None, end: int | None = None, confidence: float = 0.5,
          source: Source = Source.AGENT_ASSERTION, start_given: bool = True,
          qualified: bool = True) -> resolution.Claim:
    return resolution.Claim("s", "p", obj, span(start, end), confidence, source, start_given,
                            qualified)


def version(id: str, obj: str, start: int | None, end: int | None = None,
            status: FactStatus = ACTIVE, confidence: float = 0.5,
            source: Source = Source.AGENT_ASSERTION) -> resolution.Version:
    return resolution.Version(id, "s", "p", obj, span(start, end), confidence, source, status)


def one(strategy: Strategy) -> dict[str, Policy]:
    return {"p": Policy("p", Cardinality.ONE, strategy)}


def links(decided: resolution.Plan) -> set[tuple[str, str, str]]:
    return {(s.winner, s.loser, s.strategy) for s in decided.supersessions}


# Worked examples -----------------------------------------------------------------------------

def test_recency_tie_goes_to_the_later_belief() -> None:
    """Same start in world time: the fact memory came to believe later wins, whole."""
    decided = resolution.plan([claim("b", 0)], [version("a", "a", 0)], one(Strategy.RECENCY))
    [(b, outcome)] = decided.outcomes
    assert outcome is Outcome.CREATED
    assert decided.created == [resolution.Created(0, b, span(0, None), ACTIVE)]
    assert decided.ended == {"a": "stated more recently"}
    assert links(decided) == {(b, "a", "recency")} and decided.revisions == []
    # Within a batch, the later claim is the later belief; unknown starts tie too.
    for starts in ((3, 3), (None, None)):
        decided = resolution.plan([claim("a", starts[0]), claim("b", starts[1])], [],
                                  one(Strategy.RECENCY))
        [(a, _), (b, _)] = decided.outcomes
        assert [o for _, o in decided.outcomes] == [Outcome.CREATED, Outcome.CREATED]
        assert decided.ended == {a: "stated more recently"} and links(decided) == {
            (b, a, "recency")}


def test_recency_an_earlier_start_loses_even_when_stated_later() -> None:
    decided = resolution.plan([claim("b", 0)], [version("a", "a", 2)], one(Strategy.RECENCY))
    [(b, outcome)] = decided.outcomes
    assert outcome is Outcome.CREATED and decided.ended == {}
    assert decided.created == [resolution.Created(0, b, span(0, 2), ACTIVE)]
    assert links(decided) == {("a", b, "recency")}


def test_a_trimmed_disputed_fact_stays_disputed_for_what_it_keeps() -> None:
    """A stronger claim takes days 2-4 of two disputed facts: their remainders on either side
    are still in dispute, not silently promoted to active."""
    believed = [version("a", "a", 0, status=DISPUTED), version("b", "b", 0, status=DISPUTED)]
    decided = resolution.plan([claim("c", 2, 4, confidence=0.9)], believed,
                              one(Strategy.CONFIDENCE))
    [(c, outcome)] = decided.outcomes
    assert outcome is Outcome.CREATED and set(decided.ended) == {"a", "b"}
    assert links(decided) == {(c, "a", "confidence"), (c, "b", "confidence")}
    assert sorted((r.of, r.interval.start, r.interval.end, r.status)
                  for r in decided.revisions) == [
        ("a", day(0), day(2), DISPUTED), ("a", day(4), None, DISPUTED),
        ("b", day(0), day(2), DISPUTED), ("b", day(4), None, DISPUTED)]


def test_a_weaker_rival_the_claim_keeps_nothing_of_is_untouched() -> None:
    """``a`` (stronger) covers days 0-2 and so all of ``b`` (weaker); the claim keeps only
    days 2-3, where ``b`` never held: ``b`` must not end or be rewritten."""
    believed = [version("a", "a", 0, 2, DISPUTED, confidence=0.9),
                version("b", "b", 0, 1, DISPUTED, confidence=0.1)]
    decided = resolution.plan([claim("c", 0, 3, confidence=0.5)], believed,
                              one(Strategy.CONFIDENCE))
    [(c, outcome)] = decided.outcomes
    assert outcome is Outcome.CREATED
    assert decided.created == [resolution.Created(0, c, span(2, 3), ACTIVE)]
    assert decided.ended == {} and decided.revisions == [] and decided.disputes == []
    assert links(decided) == {("a", c, "confidence")}


def test_settling_disputes_again_what_still_clashes() -> None:
    """Keeping ``a`` (days 0-2) ends ``b`` and ``c`` there; from day 2 on they still clash,
    so their remainders form a new dispute."""
    b, c = version("b", "b", 1, status=DISPUTED), version("c", "c", 1, status=DISPUTED)
    decided = resolution.settle(version("a", "a", 0, 2, DISPUTED), [b, c], "asked")
    assert set(decided.ended) == {"b", "c"} and links(decided) == {
        ("a", "b", "manual"), ("a", "c", "manual")}
    assert sorted((r.of, r.interval, r.status) for r in decided.revisions) == [
        ("b", span(2, None), ACTIVE), ("c", span(2, None), ACTIVE)]
    assert decided.disputes == [sorted(r.id for r in decided.revisions)]


def test_settling_leaves_no_dispute_when_nothing_clashes() -> None:
    b, c = version("b", "b", 1, 2, DISPUTED), version("c", "c", 2, 3, DISPUTED)
    decided = resolution.settle(version("a", "a", 0, 5, DISPUTED), [b, c], "asked")
    assert set(decided.ended) == {"b", "c"} and decided.revisions == []
    assert decided.disputes == []


# The reference model ---------------------------------------------------------------------------
# Time is the cells -1..LAST: cell -1 is everything before day 0, cell LAST everything from day
# LAST on, cell n the day n. Every boundary drawn is a day 0..LAST, so a validity is exactly a
# run of cells, and set operations replace interval arithmetic.

LAST = 3
PRIORITY = [Source.USER_CORRECTION, Source.USER_STATEMENT, Source.AGENT_ASSERTION,
            Source.EXTRACTION, Source.INFERENCE, Source.IMPORT]  # first is strongest


def cells(interval: Interval) -> frozenset[int]:
    lo = -1 if interval.start is None else (interval.start - T0).days
    hi = LAST + 1 if interval.end is None else (interval.end - T0).days
    return frozenset(range(lo, hi))


def runs(held: frozenset[int] | set[int]) -> list[frozenset[int]]:
    """Maximal runs of consecutive cells, in order."""
    found: list[set[int]] = []
    for c in sorted(held):
        if found and max(found[-1]) == c - 1:
            found[-1].add(c)
        else:
            found.append({c})
    return [frozenset(r) for r in found]


@dataclass(eq=False)  # identity by object: two versions may hold the same thing
class Held:
    statement: str
    cells: frozenset[int]
    status: FactStatus
    confidence: float
    source: Source


@dataclass
class Expected:
    believed: list[Held]
    outcomes: list[Outcome]
    ended: list[tuple[str, frozenset[int]]]
    links: list[tuple[str, str, str]]  # (winner statement, loser statement, strategy)
    disputes: list[list[Held]]


def beats(strategy: Strategy, new: Held, old: Held) -> bool | None:
    """True when the new claim wins, False when the believed one does, None: undecided."""
    if strategy is Strategy.RECENCY:  # later start in world time; a tie: the later belief
        return min(new.cells) >= min(old.cells)
    if strategy is Strategy.CONFIDENCE:
        return None if new.confidence == old.confidence else new.confidence > old.confidence
    if strategy is Strategy.SOURCE_PRIORITY:
        if new.source == old.source:
            return None
        return PRIORITY.index(new.source) < PRIORITY.index(old.source)
    return None


def expected(believed: list[resolution.Version], claims: list[resolution.Claim],
             policy: Policy) -> Expected:
    state = [Held(v.identity, cells(v.interval), v.status, v.confidence, v.source)
             for v in believed]
    out = Expected(state, [], [], [], [])

    def replace(old: Held, pieces: list[Held]) -> None:
        out.believed.remove(old)
        out.believed.extend(pieces)
        out.ended.append((old.statement, old.cells))
        for group in out.disputes:
            if old in group:
                group[group.index(old):group.index(old) + 1] = pieces

    for c in claims:
        new = Held(c.identity, cells(c.interval), ACTIVE, c.confidence, c.source)
        start = min(new.cells)
        same = [v for v in out.believed if v.statement == new.statement]
        restated = [v for v in same if v.cells == new.cells or (
            not c.start_given and c.interval.end is None and start >= 0 and start in v.cells)]
        if restated:  # README *Confidence*: it is said again, how sure and by whom
            held, rank = restated[0], PRIORITY.index
            if c.qualified and rank(c.source) <= rank(held.source):
                held.confidence = c.confidence
            if rank(c.source) < rank(held.source):
                held.source = c.source
            out.outcomes.append(Outcome.EVIDENCE_ADDED)
            continue
        rivals = [v for v in out.believed if v.statement != new.statement
                  and v.cells & new.cells] if policy.cardinality is Cardinality.ONE else []
        verdict = {id(v): beats(policy.strategy, new, v) for v in rivals}
        kept = set(new.cells)
        for v in rivals:
            if verdict[id(v)] is False:
                kept -= v.cells
                out.links.append((v.statement, new.statement, policy.strategy.value))
        if not kept:
            out.ended.append((new.statement, new.cells))
            out.outcomes.append(Outcome.SUPERSEDED)
            continue
        for v in same:
            if v.cells & new.cells:
                out.links.append((new.statement, v.statement, "refinement"))
                replace(v, [])
        contesting = [v for v in rivals if v.cells & kept]
        undecided = [v for v in contesting if verdict[id(v)] is None]
        placed = [Held(new.statement, r, DISPUTED if any(u.cells & r for u in undecided)
                       else ACTIVE, new.confidence, new.source) for r in runs(kept)]
        for v in contesting:
            if verdict[id(v)]:
                out.links.append((new.statement, v.statement, policy.strategy.value))
                replace(v, [Held(v.statement, r, v.status, v.confidence, v.source)
                            for r in runs(v.cells - kept)])
        for v in undecided:
            v.status = DISPUTED
        if undecided:
            out.disputes.append([p for p in placed if p.status is DISPUTED] + undecided)
        out.believed.extend(placed)
        out.outcomes.append(Outcome.DISPUTED if undecided else Outcome.CREATED)
    return out


def applied(believed: list[resolution.Version], claims: list[resolution.Claim],
            decided: resolution.Plan) -> dict[str, tuple[str, frozenset[int], FactStatus]]:
    """Every version the plan touches or leaves, by id: (statement, cells, status)."""
    versions = {v.id: (v.identity, cells(v.interval), v.status) for v in believed}
    for c in decided.created:
        versions[c.id] = (claims[c.claim].identity, cells(c.interval), c.status)
    for r in decided.revisions:
        assert r.of in versions, "a revision of a version nobody planned"
        versions[r.id] = (versions[r.of][0], cells(r.interval), r.status)
    return versions


def shape(held: list[Held]) -> Counter[tuple[str, frozenset[int], FactStatus]]:
    return Counter((h.statement, h.cells, h.status) for h in held)


boundaries = st.one_of(st.none(), st.integers(0, LAST))
statements = st.sampled_from(["a", "b", "c"])
confidences = st.sampled_from([0.3, 0.6, 0.9])
sources = st.sampled_from(PRIORITY[:3])


@st.composite
def validity(draw: st.DrawFn) -> tuple[int | None, int | None]:
    start, end = draw(boundaries), draw(boundaries)
    if start is not None and end is not None and start >= end:
        start, end = (end, start) if start > end else (start, None)
    return start, end


@st.composite
def believed_versions(draw: st.DrawFn) -> list[resolution.Version]:
    drawn = draw(st.lists(st.tuples(statements, validity(), st.sampled_from([ACTIVE, DISPUTED]),
                                    confidences, sources), max_size=4))
    return [version(f"v{i}", obj, start, end, status, confidence, source)
            for i, (obj, (start, end), status, confidence, source) in enumerate(drawn)]


@st.composite
def claims(draw: st.DrawFn) -> resolution.Claim:
    start, end = draw(validity())
    # Only the two stated shapes can lack a given start: [said, open) and [unknown, end).
    start_given = not ((start is not None and end is None) or (start is None and end is not None)
                       ) or draw(st.booleans())
    return claim(draw(statements), start, end, draw(confidences), draw(sources), start_given,
                 draw(st.booleans()))


policies_drawn = st.builds(lambda c, s: Policy("p", c, s), st.sampled_from(list(Cardinality)),
                           st.sampled_from(list(Strategy)))


@settings(max_examples=600, deadline=None)
@given(believed=believed_versions(), batch=st.lists(claims(), min_size=1, max_size=4),
       policy=policies_drawn)
@example(  # rare at random: a weaker rival lies wholly under a stronger one
    believed=[version("v0", "a", 0, 2, DISPUTED, confidence=0.9),
              version("v1", "b", 0, 1, DISPUTED, confidence=0.3)],
    batch=[claim("c", 0, 3, confidence=0.6)],
    policy=Policy("p", Cardinality.ONE, Strategy.CONFIDENCE))
def test_plan_matches_the_reference_model(believed: list[resolution.Version],
                                          batch: list[resolution.Claim], policy: Policy) -> None:
    want = expected(believed, batch, policy)
    decided = resolution.plan(batch, believed, {"p": policy})
    assert [o for _, o in decided.outcomes] == want.outcomes
    versions = applied(believed, batch, decided)
    # A dispute names believed versions only, and they are disputed.
    assert not {i for group in decided.disputes for i in group} & set(decided.ended)
    statuses = {i: s for i, (_, _, s) in versions.items()}
    for group in decided.disputes:
        statuses |= dict.fromkeys(group, DISPUTED)
    now = Counter((s, c, statuses[i]) for i, (s, c, _) in versions.items()
                  if i not in decided.ended)
    assert now == shape(want.believed)
    assert Counter((versions[i][0], versions[i][1]) for i in decided.ended) == Counter(want.ended)
    # Every version the plan writes is one the model expects: nothing extra, nothing missing.
    written = len(decided.created) + len(decided.revisions)
    assert written == len(want.believed) + len(want.ended) - len(believed)
    named = {i: s for i, (s, _, _) in versions.items()}
    assert Counter((named[s.winner], named[s.loser], s.strategy)
                   for s in decided.supersessions) == Counter(want.links)
    assert [Counter((versions[i][0], versions[i][1]) for i in group)
            for group in decided.disputes] == [
        Counter((h.statement, h.cells) for h in group) for group in want.disputes]


@settings(max_examples=300, deadline=None)
@given(keep=validity(), others=st.lists(st.tuples(statements, validity()), min_size=1,
                                        max_size=4))
def test_settle_matches_the_reference_model(keep: tuple[int | None, int | None],
                                            others: list[tuple[str, tuple[int | None,
                                                                          int | None]]]) -> None:
    """The kept fact wins where it holds; the others keep the rest, active; any two other
    statements whose remainders still overlap are disputed together again."""
    kept = version("k", "k", *keep, status=DISPUTED)
    rest = [version(f"v{i}", obj, *when, status=DISPUTED)
            for i, (obj, when) in enumerate(others)]
    decided = resolution.settle(kept, rest, "asked")
    mine = cells(kept.interval)
    left = [(v.identity, cells(v.interval), DISPUTED) for v in rest if not cells(v.interval) & mine]
    ended = [v for v in rest if cells(v.interval) & mine]
    left += [(v.identity, r, ACTIVE) for v in ended for r in runs(cells(v.interval) - mine)]
    versions = applied([kept, *rest], [], decided)
    assert set(decided.ended) == {v.id for v in ended}
    assert {(s.winner, s.loser) for s in decided.supersessions} == {("k", v.id) for v in ended}
    after = {i: t for i, t in versions.items() if i not in decided.ended and i != "k"}
    assert Counter(after.values()) == Counter(left)
    clash = sorted(i for i, (s, c, _) in after.items()
                   for j, (t, d, _) in after.items() if s != t and c & d)
    assert decided.disputes == ([sorted(set(clash))] if clash else [])


# Reconciling what devices learned apart (federated memory) ------------------------------------


def test_reconcile_lets_the_later_said_value_win_whatever_order_it_arrived_in() -> None:
    lisbon, porto = version("f_lisbon", "lisbon", 10), version("f_porto", "porto", 40)
    for believed in ([lisbon, porto], [porto, lisbon]):  # arrival (belief) order either way
        decided = resolution.reconcile(believed, one(Strategy.RECENCY))
        assert links(decided) == {("f_porto", "f_lisbon", "recency")}
        assert set(decided.ended) == {"f_lisbon"}
        # Lisbon keeps what it was before Porto became true, as a revision.
        assert [(r.of, r.interval) for r in decided.revisions] == [("f_lisbon", span(10, 40))]


def test_reconcile_leaves_what_it_cannot_decide_to_a_dispute_and_touches_no_history() -> None:
    a, b = version("f_a", "a", 10, confidence=0.7), version("f_b", "b", 20, confidence=0.7)
    old = version("f_old", "old", 0, status=FactStatus.SUPERSEDED)
    decided = resolution.reconcile([a, b, old], one(Strategy.CONFIDENCE))
    assert decided.disputes == [["f_a", "f_b"]] and not decided.ended


@pytest.mark.parametrize("cardinality", [Cardinality.ONE, Cardinality.MANY])
def test_reconcile_joins_one_statement_learned_twice_into_the_first_said(
        cardinality: Cardinality) -> None:
    """The same value said on two devices is one fact: the first said stands, the later copy
    ends superseded by it and its evidence joins it; an earlier, ended copy is left alone."""
    policies = {"p": Policy("p", cardinality, Strategy.RECENCY)}
    first, later = version("f_first", "chess", 10), version("f_later", "chess", 40)
    ended = version("f_ended", "chess", 0, status=FactStatus.SUPERSEDED)
    for believed in ([first, later, ended], [later, first, ended]):
        decided = resolution.reconcile(believed, policies)
        assert links(decided) == {("f_first", "f_later", resolution.SAME_STATEMENT)}
        assert set(decided.ended) == {"f_later"} and not decided.revisions
        assert decided.joined == [("f_first", "f_later")] and not decided.disputes


def test_reconcile_keeps_the_validity_a_joined_copy_had_beyond_the_first() -> None:
    bounded, open_ = version("f_bounded", "chess", 10, 30), version("f_open", "chess", 20)
    decided = resolution.reconcile([open_, bounded], one(Strategy.RECENCY))
    assert decided.joined == [("f_bounded", "f_open")]
    assert [(r.of, r.interval) for r in decided.revisions] == [("f_open", span(30, None))]


@given(st.permutations(range(4)))
def test_reconcile_does_not_depend_on_arrival_order(order: list[int]) -> None:
    values = [version(f"f_{i}", f"v{i}", start) for i, start in enumerate((5, 30, 12, 30))]
    baseline = resolution.reconcile(values, one(Strategy.RECENCY))
    decided = resolution.reconcile([values[i] for i in order], one(Strategy.RECENCY))
    # Ties (f_1 and f_3 both from day 30) go to the later belief, as on write: the order of
    # belief is part of the input, so only the untied ends are order-free.
    assert set(decided.ended) - {"f_1", "f_3"} == set(baseline.ended) - {"f_1", "f_3"}
