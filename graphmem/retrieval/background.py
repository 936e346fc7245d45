"""Threads for background CPU work (embedding the backlog) that yield to requests.

Their scheduling priority is lowered (on Linux a thread's nice value is its own), so a burst
of writes is served, and Neo4j runs, at full speed while the backlog takes the CPU they
leave, and all of it once they are idle. Without this, a serving process embedding a bulk
load on two CPUs recorded episodes at about half the speed it does with the embedding
elsewhere (`bin/bench`, "as serve runs" against "write path only").
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import TypeVar

NICENESS = 10  # CFS gives such a thread about a tenth of a CPU its normal peers want
MAX_THREADS = 4

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
