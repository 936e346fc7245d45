"""Work that rides along with the next write transaction a request runs, in the same commit.

The audit trail uses it: a mutation's audit event commits with the change it records, so
neither exists without the other, and the request pays for one commit instead of two. The
layer above sets a rider around the operation; ``Database.transaction`` adds its work to the
first transaction that commits, and ``committed`` tells the layer above whether that happened
(else it writes the record on its own, as before).
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from graphmem.db.database import Tx


@dataclass(eq=False)
class Rider:
    work: Callable[[Tx], Awaitable[None]]
    committed: bool = False
    # The transaction running the work now: a retried attempt of the same transaction runs
    # it again; another transaction takes it only once that one has failed.
    _owner: object | None = field(default=None, repr=False)
    _open: bool = True

    def joins(self, owner: object) -> bool:
        """Whether the transaction ``owner`` (one ``Database.transaction`` call, all its
        attempts) runs the work."""
        if not self._open or self.committed or self._owner not in (None, owner):
            return False
        self._owner = owner
        return True

    def settle(self, owner: object, committed: bool) -> None:
        if self._owner is owner:
            self.committed, self._owner = committed, None


_current: ContextVar[Rider | None] = ContextVar("graphmem_rider", default=None)


def current() -> Rider | None:
    return _current.get()


@contextlib.contextmanager
def riding(work: Callable[[Tx], Awaitable[None]]) -> Iterator[Rider]:
    """Let ``work`` ride along with the next transaction run inside the block. A task the
    block started keeps the rider in its context, so it is closed when the block ends."""
    rider = Rider(work)
    token = _current.set(rider)
    try:
        yield rider
    finally:
        rider._open = False
        _current.reset(token)
