"""Keyset pagination shared by every list: opaque cursors over a sort key, a capped page size."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar

from graphmem.core.errors import InvalidInput
from graphmem.core.timeutil import check_range

T = TypeVar("T")


def encode_cursor(key: list[Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps(key, separators=(",", ":")).encode()).decode()


def decode_cursor(cursor: str | None, parse: Callable[[list[Any]], T]) -> T | None:
    """The sort key inside ``cursor``, typed by ``parse``; any malformed part is one error."""
    if cursor is None:
        return None
    try:
        key = json.loads(base64.urlsafe_b64decode(cursor.encode()))
        if isinstance(key, list):
            return parse(key)
    # RecursionError: nested past the parser's stack; OverflowError: int(1e400)
    except (IndexError, ValueError, TypeError, OverflowError, RecursionError):
        pass
    raise InvalidInput("malformed cursor: pass an endCursor you were given", field="after")


def instant(text: Any) -> datetime:
    """A cursor's moment: ISO 8601 with its UTC offset. One without (a forged cursor) would
    compare with nothing stored and silently answer an empty page."""
    moment = datetime.fromisoformat(str(text))
    if moment.tzinfo is None:
        raise ValueError("a cursor's moment has a UTC offset")
    return check_range(moment)  # 9999-12-31T23:59:59-14:00 overflowed into year 10000


def time_cursor(at: datetime, item_id: str) -> str:
    """The cursor of lists ordered by (a moment, an id)."""
    return encode_cursor([at.isoformat(), item_id])


def after_time_cursor(cursor: str | None) -> tuple[datetime | None, str | None]:
    """(moment, id) of a ``time_cursor``, or (None, None) for the first page."""
    key = decode_cursor(cursor, lambda k: (instant(k[0]), str(k[1])))
    return key or (None, None)


def batch_size(count: int, cap: int, noun: str) -> None:
    """Write batches are bounded: 1..cap items per call, one transaction each."""
    if not 1 <= count <= cap:
        raise InvalidInput(f"send 1 to {cap} {noun} per call", field=noun)


def page_size(first: int, cap: int) -> int:
    if not 1 <= first <= cap:
        raise InvalidInput(f"first must be between 1 and {cap}", field="first")
    return first


@dataclass(frozen=True)
class Page(Generic[T]):
    """One page of items with the cursor of each; ``has_next`` from fetching one extra row."""

    items: list[tuple[str, T]]
    has_next: bool

    @property
    def end_cursor(self) -> str | None:
        return self.items[-1][0] if self.items else None
