"""Background CPU work runs on threads that yield to requests."""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Sequence

import pytest

from graphmem.retrieval import background


@pytest.mark.skipif(sys.platform != "linux", reason="a thread's own priority is Linux's")
async def test_background_threads_run_at_a_lower_priority_than_the_process() -> None:
    def niceness(_: None) -> tuple[int, int]:
        return threading.get_native_id(), os.getpriority(os.PRIO_PROCESS, 0)

    tid, nice = await background.run(niceness, None)
    assert tid != threading.get_native_id()
    assert nice == os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) \
        + background.NICENESS


async def test_chunks_come_back_in_order() -> None:
    def double(chunk: Sequence[int]) -> list[int]:
        return [2 * n for n in chunk]

    assert await background.map_chunks(double, list(range(23)), 5) == [2 * n for n in range(23)]


async def test_background_batches_wait_for_a_quiet_moment_but_not_for_ever() -> None:
    activity = background.Activity()
    assert activity.quiet()  # nothing has run yet
    with activity.request():
        assert not activity.quiet()
        began = time.monotonic()
        await activity.until_quiet(patience=0.3)  # a request in flight: waits its patience
        assert 0.3 <= time.monotonic() - began < 1.0
    assert not activity.quiet()  # one just ended: a client between batches
    began = time.monotonic()
    await activity.until_quiet(patience=5.0)
    assert background.QUIET_S <= time.monotonic() - began < 1.0
    assert activity.quiet()
