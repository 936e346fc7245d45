"""Time expressions in a query ("last Tuesday at 3 PM", "last month", "two weeks ago") as a
time range relative to a reference time.

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
    if match is None:
        return None
    try:
        return _read(match.group(0), reference)
    except (ValueError, OverflowError):
        return None


def _read(text: str, reference: datetime) -> TimeRange | None:
    lowered = text.lower()
    if counted := re.match(rf"({_COUNT})\s+(minute|hour|day|week|month|year)s?\s+ago", lowered):
        return _ago(text, _WORDS.get(counted.group(1)) or int(counted.group(1)),
                    counted.group(2), reference)
    grain = re.search(r"\b(week|weekend|month|year)\b", lowered)
    if grain and re.match(r"(last|this|past|previous)\s", lowered):
        return _calendar(text, lowered.split()[0], grain.group(1), reference)
    moment = dateparser.parse(
        re.sub(r"^(on|in)\s+", "", lowered),
        languages=["en"],
        settings={"RELATIVE_BASE": reference.replace(tzinfo=None), "PREFER_DATES_FROM": "past",
                  "RETURN_AS_TIMEZONE_AWARE": False})
    if moment is None:
        return None
    moment = moment.replace(tzinfo=reference.tzinfo)
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
