"""Time expressions in queries, read against a fixed reference time (Sunday 29 Nov 2026)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.retrieval.time_expressions import find_time_range

REF = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(("query", "start", "end"), [
    ("what did I say last Tuesday at 3 PM?", "2026-11-24T14:30", "2026-11-24T16:30"),
    ("what happened last month", "2026-10-01T00:00", "2026-11-01T00:00"),
    ("the plan from two weeks ago", "2026-11-12T00:00", "2026-11-19T00:00"),
    ("what did we decide yesterday", "2026-11-28T00:00", "2026-11-29T00:00"),
    ("anything this week?", "2026-11-23T00:00", "2026-11-30T00:00"),
    ("what did I say last week", "2026-11-16T00:00", "2026-11-23T00:00"),
    ("plans for this weekend", "2026-11-28T00:00", "2026-11-30T00:00"),
    ("the hike last weekend", "2026-11-21T00:00", "2026-11-23T00:00"),
    ("two years ago", "2024-01-01T00:00", "2025-01-01T00:00"),
    ("3 days ago you told me", "2026-11-26T00:00", "2026-11-27T00:00"),
    ("the trip in March", "2026-03-01T00:00", "2026-04-01T00:00"),
    ("notes from last year", "2025-01-01T00:00", "2026-01-01T00:00"),
    ("on 2026-06-05", "2026-06-05T00:00", "2026-06-06T00:00"),
])
def test_expressions_become_ranges(query: str, start: str, end: str) -> None:
    found = find_time_range(query, REF)
    assert found is not None
    assert (found.start.isoformat()[:16], found.end.isoformat()[:16]) == (start, end)


@pytest.mark.parametrize("query", ["where do I live?", "what may I eat", "say it again",
                                   "I march on", "do you know Tuesday Weld"])
def test_ordinary_words_are_not_dates(query: str) -> None:
    assert find_time_range(query, REF) is None


@pytest.mark.parametrize(("query", "start", "end"), [
    ("What did Maria do on 31 July, 2023?", "2023-07-31", "2023-08-01"),
    ("as mentioned on 3 June 2023", "2023-06-03", "2023-06-04"),
    ("what happened on August 14th, 2023", "2023-08-14", "2023-08-15"),
    ("anything in May 2023", "2023-05-01", "2023-06-01"),
])
def test_absolute_dates(query: str, start: str, end: str) -> None:
    found = find_time_range(query, REF)
    assert found is not None
    assert (found.start.date().isoformat(), found.end.date().isoformat()) == (start, end)


@pytest.mark.parametrize(("query", "reference"), [
    ("what did I say 10000 years ago", REF),
    ("99999999999 days ago", REF),
    ("last tuesday", datetime(1, 1, 1, tzinfo=UTC)),
])
def test_a_time_outside_the_calendar_is_no_range(query: str, reference: datetime) -> None:
    assert find_time_range(query, reference) is None
