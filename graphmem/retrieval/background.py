"""Background work (embedding the backlog) that yields to requests, twice over.

- **It runs in a process of its own**, started on first use, in a session of its own at the
  lowest priority (nice 19, and on Linux its session's autogroup niced too), so the CPU goes
  to requests and to Neo4j first. Niced threads of the serving process could not do that:
  Linux shares CPU time between sessions (autogroups) before nice values count, and a local
  Neo4j runs in a session of its own. On two CPUs, while a backlog embedded on such threads,
  500-fact batches took 580 ms through the API and 240 ms by raw Cypher; with this process,
  270 ms and 90 ms.
- **Its batches** wait for a quiet moment: no request in flight for ``QUIET_S``, or at most
  ``PATIENCE_S``. A batch also costs Neo4j work (storing vectors grows the vector index),
  which no priority here can lower; during a burst of writes it is deferred instead, and
  after the burst it runs at full speed. The bound keeps the backlog moving under
  continuous load, as fast as the CPU the load leaves idle allows.

Each app or CLI command has its own (``of``: one per ``Database``). The process exits with
the service: a clean shutdown calls `stop` (the app's lifespan, the CLI's commands), and it
watches its parent, so a killed service leaves no orphan behind. It is spawned, so it
imports the main module of the program that started it (multiprocessing's rule): `graphmem
serve`, `graphmem worker` and the benchmarks guard their entry points with ``if __name__ ==
"__main__"``, and a script embedding in-process must too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from graphmem.db.slots import Slot

if TYPE_CHECKING:
    from graphmem.db.database import Database

log = logging.getLogger(__name__)
NICENESS = 19  # the lowest priority there is
QUIET_S = 0.2  # no request for this long: a client between turns, not between batches
PATIENCE_S = 5.0  # the longest a batch waits for quiet
ORPHAN_CHECK_S = 1.0  # how often the process looks for its parent
# The floor under background work. At nice 19 the process gets only what nothing else
# wants, and on a machine other work keeps busy that is nothing: 4,400 queued turns took 16
# minutes while other processes ran. Work that has not come back after its patience (at
# least STARVED_AFTER_S, more for more text: FLOOR_CHARS_PER_S is about a fifteenth of what
# the local model embeds on two idle CPUs) is left to finish there; until it has, the work
# runs in the service process instead, at its normal priority, a batch at a time.
STARVED_AFTER_S = 30.0
FLOOR_CHARS_PER_S = 1_000

T = TypeVar("T")
R = TypeVar("R")


def threads() -> int:
    """Threads the background process may use for one piece of work: one per CPU (at most
    four). They run at its priority, so they only take what nothing else wants."""
    return min(4, os.cpu_count() or 1)


def _yield_to_everything(parent: int) -> None:
    """Run first in the background process: a session (autogroup) of its own at the lowest
    priority, and an exit when its parent is gone. Where a step does not exist (no
    autogroups, no sessions elsewhere than POSIX), the process just runs without it. The
    parent's pid comes from the parent: read here, it was already init's when the parent
    died while this process was still starting, and the orphan ran on."""
    with contextlib.suppress(OSError, AttributeError):
        os.setsid()
    with contextlib.suppress(OSError):
        Path("/proc/self/autogroup").write_text(f"{NICENESS}\n")
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, 0, NICENESS)
    threading.Thread(target=_exit_when_orphaned, args=(parent,), daemon=True).start()


def _exit_when_orphaned(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(ORPHAN_CHECK_S)
    os._exit(0)


class Activity:
    """Requests in flight in one app, so its background work can wait for a quiet moment."""

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


class Background:
    """One app's (or CLI command's) background process, started on first use, and the
    requests in flight that its work yields to (``requests``: `api.http` counts them)."""

    def __init__(self) -> None:
        self._executor: ProcessPoolExecutor | None = None
        self.requests = Activity()
        self.starved_after_s = STARVED_AFTER_S
        self._late: asyncio.Future[Any] | None = None  # starved work, still out

    def _process(self) -> ProcessPoolExecutor:
        """The background process (one: its work is threaded inside it, see `threads`).
        Spawned, not forked: the service's event loop and driver threads are not copied."""
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                initializer=_yield_to_everything, initargs=(os.getpid(),))
        return self._executor

    async def run(self, work: Callable[[T], R], arg: T) -> R:
        """``work(arg)`` in the background process (``work`` a module-level function: it is
        sent by name). A process that died is replaced at the next call."""
        executor = self._process()
        try:
            return await asyncio.get_running_loop().run_in_executor(executor, work, arg)
        except BrokenProcessPool:  # killed (the OOM killer, an operator): this work is lost
            if self._executor is executor:
                self._executor = None
            executor.shutdown(wait=False)
            raise

    async def run_with_floor(self, work: Callable[[list[str]], R], texts: list[str],
                             here: Callable[[], Awaitable[R]]) -> R:
        """``work(texts)`` in the background process, unless it is starved: while a piece of
        work sent there earlier is late (see ``STARVED_AFTER_S``), or when this one becomes
        late, ``here()`` does it in this process instead. Late work is left to finish in the
        background, its result unused (cancelling a running process pool task cannot stop
        it), so a starved process holds at most one piece of work at a time."""
        if self._late is not None and not self._late.done():
            return await here()
        sent = asyncio.ensure_future(self.run(work, texts))
        patience = max(self.starved_after_s, sum(map(len, texts)) / FLOOR_CHARS_PER_S)
        done, _ = await asyncio.wait({sent}, timeout=patience)
        if done:
            return sent.result()
        log.warning("background work is late (%.0f s, the process is starved of CPU): "
                    "working in the service process until it returns", patience)
        sent.add_done_callback(_ignore_outcome)
        self._late = sent
        return await here()

    def stop(self) -> None:
        """Let the background process finish the work it holds, then exit (the service is
        shutting down; the next `run` would start another). Left to the interpreter's exit,
        its queue's semaphores were reported leaked on every shutdown."""
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)


def _ignore_outcome(late: asyncio.Future[Any]) -> None:
    """Late work's outcome, fetched so asyncio does not report it never retrieved."""
    if not late.cancelled():
        late.exception()


BACKGROUND: Slot[Background] = Slot("background")  # a database's, made on first use


def of(db: Database) -> Background:
    """The background of ``db``'s app or command: each database (and its copies) has its
    own, so two apps in one process share neither process nor requests."""
    return db.keep(BACKGROUND, Background)


def stop(db: Database) -> None:
    """Stop ``db``'s background process, if it started one (the app's lifespan, the CLI)."""
    of(db).stop()
