"""Time expressions in a query ("last Tuesday at 3 PM", "last month", "two weeks ago") as a
time range relative to a reference time; also read from a turn against the time it was said
(``event_time``: "last week" said on 8 May is early May).

Besides single dates, spans the calendar names: "between August 11 and August 15", "the
second week of November", "in 2022", and times told from another date ("the week before
August 3, 2023", "two weeks before 11 August"): those cover from the event to the anchor
date, since the turn that tells of the event is usually said on that date.

Finding the expression is a small, deterministic grammar (so "do" or "may" in a sentence
never becomes a date); reading it is dateparser's job; how wide the range is follows the
expression's own grain: a day, a week, a month, a year, or an hour around a clock time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

import dateparser

_WEEKDAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_MONTHS = ("january|february|march|april|june|july|august|september|october|november|"
           "december")
_COUNT = r"\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|a couple of|a few"
_CLOCK = r"(?:\s+(?:at\s+)?\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)|\s+at\s+\d{1,2}:\d{2})"
_EXPRESSION = re.compile(
    rf"\b(?:yesterday|today|this morning|this afternoon|this evening|tonight)\b{_CLOCK}?"
    rf"|\b(?:last|this|past|previous)\s+(?:week|weekend|month|year)\b"
    rf"|\b(?:last|this|on)\s+(?:{_WEEKDAYS})\b{_CLOCK}?"
    rf"|\b(?:{_COUNT})\s+(?:minute|hour|day|week|month|year)s?\s+ago\b"
    rf"|\bin\s+(?:{_MONTHS})(?:\s+\d{{4}})?\b"
    rf"|\b\d{{4}}-\d{{2}}-\d{{2}}\b"
    rf"|\b(?:on\s+)?\d{{1,2}}(?:st|nd|rd|th)?\s+(?:{_MONTHS}|may)\b,?\s+\d{{4}}\b"
    rf"|\b(?:on\s+)?(?:{_MONTHS}|may)\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}\b"
    rf"|\b(?:in\s+)?(?:{_MONTHS}|may)\s+\d{{4}}\b",
    re.IGNORECASE)
_DAY = r"\d{1,2}(?:st|nd|rd|th)?"
# A calendar date, the year optional ("August 11", "11 August, 2023").
_DATE = (rf"(?:{_DAY}\s+(?:{_MONTHS}|may)|(?:{_MONTHS}|may)\s+{_DAY})\b(?:,?\s+\d{{4}}\b)?")
_SPAN = re.compile(
    rf"\bbetween\s+(?P<a>{_DATE})\s+and\s+(?P<b>{_DATE}|{_DAY}\b)"
    rf"|\b(?:the\s+)?(?P<nth>first|second|third|fourth|last)\s+week\s+of\s+"
    rf"(?P<month>{_MONTHS}|may)\b(?:,?\s+(?P<year>\d{{4}})\b)?"
    rf"|\b(?:(?P<count>{_COUNT})\s+)?(?:last\s+)?(?P<unit>day|week|weekend|month)s?\s+"
    rf"before\s+(?P<anchor>{_DATE})"
    rf"|\b(?:on\s+)?(?P<date>{_DATE})"
    rf"|\bin\s+(?P<bare_year>(?:19|20)\d\d)\b",
    re.IGNORECASE)
_NTH = {"first": 0, "second": 1, "third": 2, "fourth": 3}
_UNIT_DAYS = {"day": 1, "week": 7, "weekend": 7, "month": 30}
_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
          "seven": 7, "eight": 8, "nine": 9, "ten": 10, "a couple of": 2, "a few": 3}


@dataclass(frozen=True)
class TimeRange:
    start: datetime
    end: datetime
    expression: str  # the words of the query it was read from


def find_time_range(query: str, reference: datetime) -> TimeRange | None:
    """The first time expression in ``query`` as a half-open range, or None. An expression
    that lands outside the calendar ("10000 years ago", "last tuesday" in year 1) is no
    range: ordinary text must never fail a search."""
    match = _EXPRESSION.search(query)
    span = _SPAN.search(query)
    try:
        found = _span(span, reference) if span and _span_first(span, match) else None
        if found is None and match is not None:
            found = _read(match.group(0), reference)
        return found
    except (ValueError, OverflowError):
        return None


_FIRST = re.compile(r"\b(?:first|earliest|start(?:ed|s)?|began|begin|since when|how long)\b",
                    re.IGNORECASE)


def asks_first(query: str) -> bool:
    """Whether ``query`` asks when something began ("when did she first …", "how long has
    he …"): the first mention answers it, not the latest."""
    return _FIRST.search(query) is not None


def event_time(content: str, said_at: datetime) -> TimeRange | None:
    """The time a turn tells of, read from its words against when it was said ("last week",
    "yesterday", "in March"), or None: no time word, or only the day it was said itself."""
    found = find_time_range(content, said_at)
    if found is None or found.start <= said_at < found.end:
        return None
    return found


def _span_first(span: re.Match[str], single: re.Match[str] | None) -> bool:
    """A span is read when it comes first, or when it holds the single expression ("last
    weekend before April 10")."""
    return (single is None or span.start() < single.start()
            or (span.group("date") is None and span.end() >= single.end()))


def _span(match: re.Match[str], reference: datetime) -> TimeRange | None:
    text = match.group(0)
    if match.group("a"):
        return _between(match.group("a"), match.group("b"), reference, text)
    if match.group("month"):
        named = f"1 {match.group('month')} {match.group('year') or ''}".strip()
        month = _day(named, reference)
        if month is None:
            return None
        if match.group("nth").lower() == "last":
            start = _add_months(month, 1) - timedelta(days=7)
        else:
            start = month + timedelta(days=7 * _NTH[match.group("nth").lower()])
        return TimeRange(start, start + timedelta(days=7), text)
    if match.group("anchor"):
        anchor = _day(match.group("anchor"), reference)
        if anchor is None:
            return None
        count = _WORDS.get((match.group("count") or "a").lower()) or int(match.group("count"))
        back = timedelta(days=(count + 1) * _UNIT_DAYS[match.group("unit").lower()])
        return TimeRange(anchor - back, anchor + timedelta(days=1), text)
    if match.group("bare_year"):
        start = _start_of_day(reference).replace(year=int(match.group("bare_year")), month=1,
                                                 day=1)
        return TimeRange(start, start.replace(year=start.year + 1), text)
    day = _day(match.group("date"), reference)
    return TimeRange(day, day + timedelta(days=1), text) if day is not None else None


def _between(a: str, b: str, reference: datetime, text: str) -> TimeRange | None:
    """From date ``a`` through date ``b`` ("August 11 and 15": the second is a day of the
    first's month; "3 March and 9 March, 2025": the first is of the second's year)."""
    year = re.search(r"\d{4}$", b)
    first = _day(a if year is None or re.search(r"\d{4}$", a) else f"{a} {year.group(0)}",
                 reference)
    if first is None:
        return None
    last = (first.replace(day=int(re.sub(r"\D", "", b))) if re.fullmatch(_DAY, b)
            else _day(b, reference))
    if last is None or last < first:
        return None
    return TimeRange(first, last + timedelta(days=1), text)


def _day(text: str, reference: datetime) -> datetime | None:
    """A calendar date (the latest one up to ``reference`` when the year is left out)."""
    moment = _parse(re.sub(r"(?<=\d)(st|nd|rd|th)\b", "", text.lower()), reference)
    return _start_of_day(moment) if moment is not None else None


def _parse(text: str, reference: datetime) -> datetime | None:
    """dateparser's reading of ``text``, in the past of ``reference`` and in its zone."""
    moment = dateparser.parse(
        text, languages=["en"],
        settings={"RELATIVE_BASE": reference.replace(tzinfo=None), "PREFER_DATES_FROM": "past",
                  "RETURN_AS_TIMEZONE_AWARE": False, "PREFER_DAY_OF_MONTH": "first"})
    return moment.replace(tzinfo=reference.tzinfo) if moment is not None else None


def _read(text: str, reference: datetime) -> TimeRange | None:
    lowered = text.lower()
    if counted := re.match(rf"({_COUNT})\s+(minute|hour|day|week|month|year)s?\s+ago", lowered):
        return _ago(text, _WORDS.get(counted.group(1)) or int(counted.group(1)),
                    counted.group(2), reference)
    grain = re.search(r"\b(week|weekend|month|year)\b", lowered)
    if grain and re.match(r"(last|this|past|previous)\s", lowered):
        return _calendar(text, lowered.split()[0], grain.group(1), reference)
    moment = _parse(re.sub(r"^(on|in)\s+", "", lowered), reference)
    if moment is None:
        return None
    if re.search(_CLOCK, lowered):  # a clock time: the hour around it
        return TimeRange(moment - timedelta(minutes=30), moment + timedelta(minutes=90), text)
    if lowered.startswith("in ") or re.fullmatch(rf"(?:{_MONTHS}|may)\s+\d{{4}}", lowered):
        start = moment.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
        return TimeRange(start, _add_months(start, 1), text)
    day = moment.replace(hour=0, minute=0, second=0, microsecond=0)
    return TimeRange(day, day + timedelta(days=1), text)


def _ago(text: str, count: int, unit: str, reference: datetime) -> TimeRange:
    if unit in ("minute", "hour"):
        moment = reference - timedelta(**{f"{unit}s": count})
        slack = timedelta(minutes=15 if unit == "minute" else 60)
        return TimeRange(moment - slack, moment + slack, text)
    if unit == "month":
        start = _add_months(_start_of_month(reference), -count)
        return TimeRange(start, _add_months(start, 1), text)
    if unit == "year":
        start = _start_of_day(reference).replace(year=reference.year - count, month=1, day=1)
        return TimeRange(start, start.replace(year=start.year + 1), text)
    days = count * (7 if unit == "week" else 1)
    day = _start_of_day(reference) - timedelta(days=days)
    width = timedelta(days=7 if unit == "week" else 1)
    return TimeRange(day - (width - timedelta(days=1)) / 2, day + (width + timedelta(days=1)) / 2,
                     text)


def _calendar(text: str, which: str, grain: str, reference: datetime) -> TimeRange:
    today = _start_of_day(reference)
    this = which == "this"
    if grain in ("week", "weekend"):
        monday = today - timedelta(days=today.weekday())
        start = monday if this else monday - timedelta(days=7)
        if grain == "weekend":
            return TimeRange(start + timedelta(days=5), start + timedelta(days=7), text)
        return TimeRange(start, start + timedelta(days=7), text)
    if grain == "month":
        start = _start_of_month(reference) if this else _add_months(_start_of_month(reference), -1)
        return TimeRange(start, _add_months(start, 1), text)
    start = today.replace(month=1, day=1, year=reference.year - (0 if this else 1))
    return TimeRange(start, start.replace(year=start.year + 1), text)


def _start_of_day(moment: datetime) -> datetime:
    return moment.replace(hour=0, minute=0, second=0, microsecond=0)


def _start_of_month(moment: datetime) -> datetime:
    return _start_of_day(moment).replace(day=1)


def _add_months(moment: datetime, months: int) -> datetime:
    index = moment.year * 12 + moment.month - 1 + months
    return moment.replace(year=index // 12, month=index % 12 + 1)
