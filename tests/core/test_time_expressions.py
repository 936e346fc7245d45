"""Time expressions in queries, read against a fixed reference time (Sunday 29 Nov 2026)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from dateutil.relativedelta import MO, relativedelta
from hypothesis import example, given, settings
from hypothesis import strategies as st

from graphmem.core.time_expressions import asks_first, event_time, find_time_range

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


# Calendar edges against an independent reference (dateutil's relativedelta, not the module's
# own month arithmetic): year ends both ways, leap days, months that end on the 31st.
EDGES = [datetime(2027, 1, 1, 0, 0), datetime(2027, 1, 31, 23, 59), datetime(2026, 12, 31, 12),
         datetime(2026, 12, 1), datetime(2024, 2, 29, 8), datetime(2024, 3, 1, 0, 30),
         datetime(2023, 3, 1), datetime(2024, 3, 31, 18), datetime(2025, 5, 31),
         datetime(2100, 3, 1), datetime(2000, 2, 29)]


def _reference(query: str, ref: datetime) -> tuple[datetime, datetime]:
    """The range each expression means, spelled with relativedelta."""
    day = datetime(ref.year, ref.month, ref.day, tzinfo=UTC)
    month = day.replace(day=1)
    year = month.replace(month=1)
    monday = day - relativedelta(weekday=MO(-1))
    if counted := re.fullmatch(r"(\d+) (day|month|year)s? ago", query):
        n, unit = int(counted.group(1)), counted.group(2)
        start = {"day": day - relativedelta(days=n), "month": month - relativedelta(months=n),
                 "year": year - relativedelta(years=n)}[unit]
        return start, start + relativedelta(**{f"{unit}s": 1})
    return {
        "yesterday": (day - relativedelta(days=1), day),
        "today": (day, day + relativedelta(days=1)),
        "last month": (month - relativedelta(months=1), month),
        "this month": (month, month + relativedelta(months=1)),
        "last year": (year - relativedelta(years=1), year),
        "this year": (year, year + relativedelta(years=1)),
        "last week": (monday - relativedelta(weeks=1), monday),
        "this week": (monday, monday + relativedelta(weeks=1)),
    }[query]


EXPRESSIONS = ["yesterday", "today", "last month", "this month", "last year", "this year",
               "last week", "this week", "1 day ago", "1 month ago", "11 months ago",
               "13 months ago", "1 year ago", "4 years ago"]


@given(ref=st.one_of(st.sampled_from(EDGES),
                     st.datetimes(datetime(1901, 1, 1), datetime(2199, 12, 31))),
       query=st.sampled_from(EXPRESSIONS))
@example(ref=datetime(2027, 1, 15), query="last month")  # said in January
@example(ref=datetime(2026, 12, 15), query="this month")  # said in December: ends in January
@example(ref=datetime(2024, 3, 1), query="yesterday")  # a leap day
@example(ref=datetime(2024, 3, 31), query="1 month ago")  # February has no 31st
@settings(max_examples=300, deadline=None)
def test_calendar_edges_match_an_independent_reference(ref: datetime, query: str) -> None:
    reference = ref.replace(tzinfo=UTC)
    found = find_time_range(f"what did we say {query}?", reference)
    assert found is not None, query
    assert (found.start, found.end) == _reference(query, reference), (query, reference)


@pytest.mark.parametrize(("query", "start", "end"), [
    ("on 2024-02-29", "2024-02-29", "2024-03-01"),
    ("on 29 February 2024", "2024-02-29", "2024-03-01"),
    ("on December 31st, 2026", "2026-12-31", "2027-01-01"),
    ("in December 2026", "2026-12-01", "2027-01-01"),
    ("in February 2024", "2024-02-01", "2024-03-01"),
])
def test_absolute_calendar_edges(query: str, start: str, end: str) -> None:
    found = find_time_range(query, REF)
    assert found is not None
    assert (found.start.date().isoformat(), found.end.date().isoformat()) == (start, end)


@pytest.mark.parametrize(("query", "start", "end"), [
    ("what happened between August 11 and August 15", "2026-08-11", "2026-08-16"),
    ("between 3 March and 9 March, 2025?", "2025-03-03", "2025-03-10"),
    ("anything between August 11 and 15", "2026-08-11", "2026-08-16"),
    ("the second week of November", "2026-11-08", "2026-11-15"),
    ("the first week of December", "2025-12-01", "2025-12-08"),  # December 2026 is ahead
    ("the last week of February 2024", "2024-02-23", "2024-03-01"),
    ("what did we do in 2022", "2022-01-01", "2023-01-01"),
    ("what did she say on August 11", "2026-08-11", "2026-08-12"),
    # Told from another date: from the event to the anchor, when it was likely told.
    ("what did he do the week before August 3, 2023", "2023-07-20", "2023-08-04"),
    ("the puppy she got two weeks before August 11, 2023", "2023-07-21", "2023-08-12"),
    ("what did she join last weekend before April 10, 2023", "2023-03-27", "2023-04-11"),
])
def test_calendar_spans(query: str, start: str, end: str) -> None:
    found = find_time_range(query, REF)
    assert found is not None
    assert (found.start.date().isoformat(), found.end.date().isoformat()) == (start, end)
    assert found.expression in query


@pytest.mark.parametrize("query", ["between you and me", "the first week was hard",
                                   "two weeks before the race", "in 12 hours"])
def test_spans_need_dates(query: str) -> None:
    assert find_time_range(query, REF) is None


@pytest.mark.parametrize(("query", "first"), [
    ("When did Jon first go to the gym?", True), ("When did she start painting?", True),
    ("How long has he had the dog?", True), ("What was the earliest trip?", True),
    ("When did Jon go to the gym?", False), ("What did she restart?", False),
])
def test_questions_asking_for_a_first_mention(query: str, first: bool) -> None:
    assert asks_first(query) is first


@pytest.mark.parametrize(("said", "start", "end"), [
    ("Last week I ran my first half marathon", "2023-05-01", "2023-05-08"),
    ("we went camping yesterday", "2023-05-07", "2023-05-08"),
    ("Last month I moved to Leeds", "2023-04-01", "2023-05-01"),
    ("I adopted her two weeks ago", "2023-04-21", "2023-04-28"),
])
def test_a_turn_tells_of_a_time_read_against_when_it_was_said(said: str, start: str,
                                                              end: str) -> None:
    monday = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    found = event_time(said, monday)
    assert found is not None
    assert (found.start.date().isoformat(), found.end.date().isoformat()) == (start, end)


@pytest.mark.parametrize("said", ["I feel great today", "what a lovely morning",
                                  "tonight we eat out", "I may go"])
def test_a_turn_about_its_own_day_or_no_time_tells_of_none(said: str) -> None:
    assert event_time(said, datetime(2023, 5, 8, 13, 56, tzinfo=UTC)) is None
