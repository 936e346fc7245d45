"""Holding parts of the suite's in-process app still while a test counts what they do."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from starlette.applications import Starlette

from graphmem.retrieval import embeddings


@contextlib.asynccontextmanager
async def embedding_paused(app: Starlette) -> AsyncIterator[None]:
    """The app's embedding worker stops (giving back its claim) until the block ends."""
    runtime = app.state.runtime
    if runtime._worker is not None:
        runtime._worker.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await runtime._worker
    try:
        yield
    finally:
        runtime._worker = asyncio.create_task(embeddings.run_worker(
            runtime.db, runtime.embedder, runtime.settings.embedding_batch_size))
