"""Holding parts of the suite's in-process app still while a test counts what they do."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import AsyncIterator

from starlette.applications import Starlette

from graphmem.retrieval import embeddings
from graphmem.retrieval.background import Background


@contextlib.asynccontextmanager
async def embedding_paused(app: Starlette) -> AsyncIterator[None]:
    """The app's embedding worker stops (giving back its claim) until the block ends.

    Pauses nest (an app of a test's own inside another's pauses the session app twice): the
    worker starts again when the outermost ends, once. Restarting it at each end left a second
    worker running unseen, keyless, setting aside what the next keyed app sealed."""
    runtime, state = app.state.runtime, app.state
    depth: int = getattr(state, "embedding_pauses", 0)
    if depth == 0 and runtime._worker is not None:  # kept, cancelled: it was running
        runtime._worker.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await runtime._worker
    state.embedding_pauses = depth + 1
    try:
        yield
    finally:
        state.embedding_pauses -= 1
        if state.embedding_pauses == 0 and runtime._worker is not None:
            runtime._worker = asyncio.create_task(embeddings.run_worker(
                runtime.db, runtime.embedder, runtime.settings.embedding_batch_size))

def embedding_workers(app: Starlette) -> int:
    """How many embedding workers run on the app's database (its own, when not paused: 1)."""
    db = app.state.runtime.db
    running = [task for task in asyncio.all_tasks() if not task.done()]
    return len([task for task in running if _runs_worker_on(task, db)])


def _runs_worker_on(task: asyncio.Task[object], db: object) -> bool:
    coro = task.get_coro()
    frame = getattr(coro, "cr_frame", None)
    return getattr(coro, "__qualname__", "") == "run_worker" and frame is not None \
        and frame.f_locals.get("db") is db


def background_pid(_: object) -> int:
    """Run in a background process (module level: work is sent by name)."""
    return os.getpid()


@contextlib.asynccontextmanager
async def starved(background: Background, patience_s: float = 0.5) -> AsyncIterator[int]:
    """``background``'s process gets no CPU until the block ends (stopped: the extreme of a
    nice-19 process on a machine other work keeps busy), and work there counts as late after
    ``patience_s``. Yields the stopped process's pid."""
    pid = await background.run(background_pid, None)
    background.starved_after_s = patience_s
    os.kill(pid, signal.SIGSTOP)
    try:
        yield pid
    finally:
        os.kill(pid, signal.SIGCONT)
