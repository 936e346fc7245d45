"""Background work (embedding the backlog) that yields to requests, twice over.

- **Its threads** run at a lower scheduling priority (on Linux a thread's nice value is its
  own), so the CPU goes to requests first.
- **Its batches** wait for a quiet moment: no request in flight for ``QUIET_S``, or at most
  ``PATIENCE_S``. A batch also costs Neo4j work (storing vectors grows the vector index),
  which no thread priority here can lower; during a burst of writes it is deferred instead,
  and after the burst it runs at full speed. The bound keeps the backlog moving under
  continuous load.

Without either, a serving process embedding a bulk load on two CPUs recorded episodes at
half the speed it did with no embedding (`bin/bench`, "as serve runs" against "write path
only").
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import TypeVar

NICENESS = 10  # CFS gives such a thread about a tenth of a CPU its normal peers want
MAX_THREADS = 4
QUIET_S = 0.2  # no request for this long: a client between turns, not between batches
PATIENCE_S = 5.0  # the longest a batch waits for quiet

T = TypeVar("T")
R = TypeVar("R")


def _lower_priority() -> None:
    """Run in each new background thread: lower its own priority (elsewhere than Linux,
    where priority is per process, it stays a normal thread)."""
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(),
                       os.getpriority(os.PRIO_PROCESS, 0) + NICENESS)


@cache
def pool() -> ThreadPoolExecutor:
    """The process's background threads: one per CPU (at most four)."""
    return ThreadPoolExecutor(max_workers=min(MAX_THREADS, os.cpu_count() or 1),
                              thread_name_prefix="graphmem-background",
                              initializer=_lower_priority)


async def run(work: Callable[[T], R], arg: T) -> R:
    """``work(arg)`` on a background thread."""
    return await asyncio.get_running_loop().run_in_executor(pool(), work, arg)


async def map_chunks(work: Callable[[Sequence[T]], list[R]], items: Sequence[T],
                     size: int) -> list[R]:
    """``work`` over ``items`` in chunks of ``size``, the chunks on the background threads
    at once; the results in the order of ``items``."""
    chunks = [items[i:i + size] for i in range(0, len(items), size)]
    done = await asyncio.gather(*(run(work, chunk) for chunk in chunks))
    return [result for chunk in done for result in chunk]


class Activity:
    """Requests in flight in this process, so background work can wait for a quiet moment."""

    def __init__(self) -> None:
        self.in_flight = 0
        self.last_ended = 0.0  # time.monotonic()

    @contextlib.contextmanager
    def request(self) -> Iterator[None]:
        self.in_flight += 1
        try:
            yield
        finally:
            self.in_flight -= 1
            self.last_ended = time.monotonic()

    def quiet(self) -> bool:
        return self.in_flight == 0 and time.monotonic() - self.last_ended >= QUIET_S

    async def until_quiet(self, patience: float = PATIENCE_S) -> None:
        """Return once no request has run for ``QUIET_S``, or after ``patience`` seconds."""
        deadline = time.monotonic() + patience
        while not self.quiet() and time.monotonic() < deadline:
            await asyncio.sleep(QUIET_S / 4)


requests = Activity()  # the process's GraphQL requests (`api.http` counts them)
