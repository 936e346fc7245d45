"""Background CPU work runs in a process of its own that yields to requests and to Neo4j."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from graphmem.retrieval import background
from graphmem.retrieval.background import Background
from tests.support.runtime import background_pid, starved

ROOT = Path(__file__).resolve().parents[2]
AUTOGROUP = Path("/proc/self/autogroup")


@pytest.fixture
def own() -> Iterator[Background]:
    """A background of the test's own (an app's or a command's), stopped after it."""
    made = Background()
    yield made
    made.stop()


def where_it_runs(_: None) -> tuple[int, int, int, str]:
    """Run in the background process (module level: work is sent by name)."""
    group = AUTOGROUP.read_text() if AUTOGROUP.exists() else ""
    return os.getpid(), os.getsid(0), os.getpriority(os.PRIO_PROCESS, 0), group


@pytest.mark.skipif(sys.platform != "linux", reason="sessions' autogroups are Linux's")
async def test_background_work_runs_in_a_session_of_its_own_at_the_lowest_priority(
        own: Background) -> None:
    """A session of its own: on Linux, CPU is shared between sessions before nice values
    count, so a niced thread of the service still took half the CPUs from Neo4j."""
    pid, session, nice, group = await own.run(where_it_runs, None)
    assert pid != os.getpid() and session != os.getsid(0)
    assert nice == background.NICENESS == 19
    if AUTOGROUP.exists():
        assert group.split()[-2:] == ["nice", "19"], group
        # A process in the root autogroup (as under some CI runners) reads an empty file.
        ours = AUTOGROUP.read_text().split()
        assert not ours or group.split()[0] != ours[0]


KILLED_AFTER_THE_WORK = """
pid = asyncio.run(background.Background().run(where_it_runs, None))[0]
"""
KILLED_WHILE_IT_STARTS = """
async def submit() -> int:
    asyncio.ensure_future(background.Background().run(where_it_runs, None))
    await asyncio.sleep(0)  # submitted: the process is starting, nothing has run in it yet
    return multiprocessing.active_children()[0].pid
pid = asyncio.run(submit())
"""


@pytest.mark.skipif(sys.platform != "linux", reason="read from /proc")
@pytest.mark.parametrize("killed", [KILLED_AFTER_THE_WORK, KILLED_WHILE_IT_STARTS],
                         ids=["after its work", "while it starts"])
def test_the_background_process_does_not_outlive_a_killed_service(killed: str) -> None:
    """While it starts, its parent's pid must come from the parent: read in the process, it
    was already init's, and the orphan lived on."""
    service = subprocess.Popen(
        [sys.executable, "-c", (
            "import asyncio, multiprocessing, os\n"
            "from graphmem.retrieval import background\n"
            "from tests.retrieval.test_background import where_it_runs\n"
            f"{killed}\n"
            "print(pid, flush=True)\n"
            "os._exit(0)  # killed: no executor shutdown\n")],
        cwd=ROOT, stdout=subprocess.PIPE, text=True)
    with service:  # its first line only: a background process left running keeps the pipe
        child = int(service.stdout.readline()) if service.stdout else 0
        assert service.wait(timeout=60) == 0
    try:
        deadline = time.monotonic() + 10 * background.ORPHAN_CHECK_S
        while alive(child) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not alive(child)
    finally:  # a failure (or a mutant) leaves no process behind
        with contextlib.suppress(ProcessLookupError):
            os.kill(child, signal.SIGKILL)


async def test_a_killed_background_process_is_replaced(own: Background) -> None:
    """Its work at the time fails (the embedding worker releases the batch and retries); the
    next work starts a new process."""
    pid = (await own.run(where_it_runs, None))[0]
    os.kill(pid, signal.SIGKILL)
    with pytest.raises(BrokenProcessPool):
        await own.run(where_it_runs, None)
    assert (await own.run(where_it_runs, None))[0] not in (pid, os.getpid())


async def test_a_stopped_background_process_exits_and_the_next_work_starts_another(
        own: Background) -> None:
    """The service stops it when it shuts down (its queue is released, not left to the
    interpreter's exit, which reported it leaked)."""
    pid = (await own.run(where_it_runs, None))[0]
    await asyncio.to_thread(own.stop)
    assert not alive(pid)
    assert (await own.run(where_it_runs, None))[0] != pid


def test_the_command_imports_its_cli_only_when_it_runs() -> None:
    """Spawning the background process re-imports the parent's main script, the `graphmem`
    command's: importing the CLI there cost the background process about 50 MB."""
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, graphmem.__main__\n"
                               "print(sorted(m for m in sys.modules if 'graphmem' in m))"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=True).stdout
    assert loaded.split() == ["['graphmem',", "'graphmem.__main__']"]


def alive(pid: int) -> bool:
    """Running, not exited (an exited process nobody reaped yet is a zombie: not alive)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "\nState:\tZ" not in status


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


def pid_of(texts: list[str]) -> int:
    """Background work on texts: where it ran (module level: work is sent by name)."""
    return os.getpid()


async def test_starved_background_work_is_done_in_the_service_until_the_late_work_returns(
        own: Background) -> None:
    """At nice 19 the background process gets no CPU while other work keeps the machine busy
    (4,400 turns took 16 minutes): past its patience, work runs in the service's process,
    and so does the next while the late one is out (one late piece at a time, never a
    queue); once it is back, work goes to the background process again."""
    async def here() -> int:
        return os.getpid()

    async with starved(own, patience_s=0.3) as pid:
        began = time.monotonic()
        assert await own.run_with_floor(pid_of, ["a turn"], here) == os.getpid()
        assert 0.3 <= time.monotonic() - began < 5
        began = time.monotonic()
        assert await own.run_with_floor(pid_of, ["another"], here) == os.getpid()
        assert time.monotonic() - began < 0.3  # the late one is still out: not waited for
    for _ in range(100):  # running again, it finishes the late work
        if await own.run_with_floor(pid_of, ["a third"], here) == pid:
            break
        await asyncio.sleep(0.05)
    else:
        pytest.fail("work never went back to the background process")
    assert await own.run(background_pid, None) == pid  # the same process throughout


async def test_more_text_is_given_more_patience(own: Background) -> None:
    """A batch of long texts takes longer than a short one: it is late only past the time the
    floor rate allows it."""
    async def here() -> int:
        return os.getpid()

    texts = ["x" * int(background.FLOOR_CHARS_PER_S * 0.8)] * 2  # 1.6 s at the floor rate
    async with starved(own, patience_s=0.1):
        began = time.monotonic()
        assert await own.run_with_floor(pid_of, texts, here) == os.getpid()
        assert time.monotonic() - began >= 1.6
