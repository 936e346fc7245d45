"""Interval arithmetic, checked pointwise against the definition over random intervals."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.facts.intervals import Interval, subtract

T0 = datetime(2026, 1, 1, tzinfo=UTC)
moments = st.integers(0, 20).map(lambda d: T0 + timedelta(days=d))
ends = st.one_of(st.none(), moments)


@st.composite
def intervals(draw: st.DrawFn) -> Interval:
    start, end = draw(ends), draw(ends)
    if start is not None and end is not None and start >= end:
        start, end = end - timedelta(days=1), start + timedelta(days=1)
    return Interval(start, end)


PROBES = [T0 + timedelta(days=d, hours=12) for d in range(-2, 23)] + \
         [T0 + timedelta(days=d) for d in range(-2, 23)]


@given(intervals(), st.lists(intervals(), max_size=3))
def test_subtract_is_pointwise_difference(base: Interval, cuts: list[Interval]) -> None:
    pieces = subtract(base, cuts)
    for moment in PROBES:
        expected = base.contains(moment) and not any(c.contains(moment) for c in cuts)
        assert sum(p.contains(moment) for p in pieces) == int(expected), moment
    assert all(not a.overlaps(b) for i, a in enumerate(pieces) for b in pieces[i + 1:])


@given(intervals(), intervals())
def test_overlap_means_a_shared_moment(a: Interval, b: Interval) -> None:
    shared = any(a.contains(m) and b.contains(m) for m in PROBES)
    assert a.overlaps(b) == shared


def test_an_interval_must_last() -> None:
    """An instant or a backwards span is no validity: nothing could hold in it."""
    for start, end in ((T0, T0), (T0 + timedelta(days=1), T0)):
        with pytest.raises(ValueError, match="start before it ends"):
            Interval(start, end)
    assert Interval(T0, T0 + timedelta(microseconds=1)).contains(T0)
