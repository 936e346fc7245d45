"""Time at the edges: timezone-aware in, UTC stored, Python datetimes out."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from graphmem.core.errors import InvalidInput

# The instants graphmem accepts: every window it computes around one (a year back, a day
# ahead) stays within what Python and Neo4j can represent.
EARLIEST = datetime(100, 1, 1, tzinfo=UTC)
LATEST = datetime(9899, 12, 31, 23, 59, 59, tzinfo=UTC)


def check_range(value: datetime) -> datetime:
    """``value`` when it lies between EARLIEST and LATEST (in UTC), else ValueError."""
    try:
        instant = value if value.tzinfo is None else value.astimezone(UTC)
    except OverflowError:  # 9999-12-31T23:59:59-14:00 is in year 10000 in UTC
        instant = LATEST + timedelta(seconds=1)
    if not EARLIEST.replace(tzinfo=None) <= instant.replace(tzinfo=None) <= \
            LATEST.replace(tzinfo=None):
        raise ValueError(f"a time must lie between {EARLIEST.date().isoformat()} and "
                         f"{LATEST.date().isoformat()}")
    return value


def duration(field: str, *, days: float = 0, minutes: float = 0) -> timedelta:
    """A client's number of days or minutes as a span; one no clock can hold (1e300 days) is
    the client's error, not an overflow inside."""
    try:
        return timedelta(days=days, minutes=minutes)
    except OverflowError:
        raise InvalidInput(f"{field} is out of range", field=field) from None


def require_aware(value: datetime, field: str) -> None:
    if value.tzinfo is None or value.utcoffset() is None:
        raise InvalidInput(f"{field} must carry a timezone (e.g. 2026-05-01T09:30:00Z)",
                           field=field)


def to_native(value: datetime | None) -> datetime | None:
    """What we hand the driver: UTC, so every stored instant compares and sorts alike."""
    return None if value is None else value.astimezone(UTC)


def parse_stored_datetime(value: Any) -> datetime:
    """The driver returns ``neo4j.time.DateTime``; the rest of graphmem uses ``datetime``."""
    if isinstance(value, datetime):
        return value
    native: datetime = value.to_native()
    return native


def maybe_datetime(value: Any) -> datetime | None:
    return None if value is None else parse_stored_datetime(value)
