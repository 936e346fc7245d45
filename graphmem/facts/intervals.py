"""Half-open validity intervals ``[start, end)`` in world time; ``None`` is an open end.

Conflict resolution is interval arithmetic: a winning fact takes the overlap, the loser keeps
what is left on either side. Pure functions, property-tested.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class Interval:
    start: datetime | None = None  # None: since forever (or unknown)
    end: datetime | None = None  # None: still true

    def __post_init__(self) -> None:
        if self.start is not None and self.end is not None and self.start >= self.end:
            raise ValueError("an interval must start before it ends")

    def contains(self, moment: datetime) -> bool:
        return (self.start is None or self.start <= moment) and \
            (self.end is None or moment < self.end)

    def overlaps(self, other: Interval) -> bool:
        return _before(self.start, other.end) and _before(other.start, self.end)

    def minus(self, other: Interval) -> list[Interval]:
        """What is left of this interval outside ``other``: zero, one or two pieces."""
        if not self.overlaps(other):
            return [self]
        pieces = []
        if other.start is not None and _before(self.start, other.start):
            pieces.append(Interval(self.start, other.start))
        if other.end is not None and _before(other.end, self.end):
            pieces.append(Interval(other.end, self.end))
        return pieces


def subtract(base: Interval, cuts: list[Interval]) -> list[Interval]:
    """``base`` minus every interval in ``cuts``, as ordered, disjoint pieces."""
    pieces = [base]
    for cut in cuts:
        pieces = [rest for piece in pieces for rest in piece.minus(cut)]
    return sorted(pieces, key=lambda p: (p.start is not None, p.start))


def starts_later(a: Interval, b: Interval) -> int:
    """1 when ``a`` starts later in world time than ``b``, -1 when earlier, 0 when equal
    (an unknown start counts as the earliest)."""
    if a.start == b.start:
        return 0
    if a.start is None:
        return -1
    if b.start is None:
        return 1
    return 1 if a.start > b.start else -1


def _before(start: datetime | None, end: datetime | None) -> bool:
    """start < end, with None as -inf for starts and +inf for ends."""
    return start is None or end is None or start < end
