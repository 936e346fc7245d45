"""Independent reads of one request, run concurrently (an agent waits for recall)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any


async def at_once(*reads: Awaitable[Any]) -> list[Any]:
    """The reads' results, run concurrently; the first failure cancels the others (they would
    read on for a request that has already failed) and is raised as it is."""
    tasks = [asyncio.ensure_future(read) for read in reads]
    try:
        return await asyncio.gather(*tasks)
    except BaseException:
        for task in tasks:
            task.cancel()
        raise
