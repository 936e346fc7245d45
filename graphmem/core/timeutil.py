"""Time at the edges: timezone-aware in, UTC stored, Python datetimes out."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from graphmem.core.errors import InvalidInput


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
