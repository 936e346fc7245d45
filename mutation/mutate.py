"""Named mutants: plant one small bug at a time and see whether the tests notice.

    bin/mutate [--module M ...] [--pure] [--list] [--shared] [--jobs N] [--min-rate R] [NAME ...]

Each mutant in ``mutants.toml`` names a module (the promise it attacks), a file, an exact
string that occurs once in it, its replacement, and the tests that should fail. The suite is
copied once to a scratch folder; each mutant is planted there, its tests run, and the file
restored. They run against a Neo4j of the run's own, started in a fresh home (free ports)
and deleted after, so nothing an earlier run or another suite left in a store (an encrypted
turn, an idle ephemeral session, a webhook of a namespace long gone) can decide a verdict;
``--shared`` runs them on the suite's test Neo4j instead (``bin/test``'s; quicker to start),
``--pure`` only the mutants whose tests need none (``--jobs N``: that many at a time, each
in a copy of its own). Each pytest is forked from the runner, which imported the test tools
and libraries once (graphmem itself is imported by the child, from the mutated copy).
Property tests run with a fixed seed, so a verdict is repeatable. A mutant is *killed* when
its tests fail; a survivor is a test gap, unless it is listed with ``equivalent = "why"`` (a
change no test could see, e.g. a shortcut whose fallback gives the same answer). Prints the
kill rate per module; exits 1 when any module's rate, equivalent mutants aside, is below
``--min-rate``.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import tomllib
import uuid
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MUTANTS = Path(__file__).with_name("mutants.toml")
TIMEOUT_S = 300  # one mutant's tests
BASELINE_TIMEOUT_S = 2400  # all of them at once, on a busy machine


@dataclass(frozen=True)
class Mutant:
    name: str
    module: str
    file: str
    old: str
    new: str
    tests: tuple[str, ...]
    pure: bool = False  # its tests need no Neo4j
    equivalent: str = ""  # why no test can tell it apart, when none can


@dataclass(frozen=True)
class Outcome:
    mutant: Mutant
    killed: bool
    seconds: float
    how: str  # the first failing test, "timeout", or "survived"


def load(path: Path = MUTANTS) -> list[Mutant]:
    raw = tomllib.loads(path.read_text("utf-8"))["mutant"]
    mutants = [Mutant(**{**m, "tests": tuple(m["tests"])}) for m in raw]
    names = [m.name for m in mutants]
    duplicated = {n for n in names if names.count(n) > 1}
    if duplicated:
        raise SystemExit(f"mutants named twice: {sorted(duplicated)}")
    return mutants


def check(mutant: Mutant, root: Path = ROOT) -> str:
    """The file's text, once it is known the mutant still applies (exactly one match)."""
    text = (root / mutant.file).read_text("utf-8")
    found = text.count(mutant.old)
    if found != 1:
        raise SystemExit(f"mutant {mutant.name!r}: its old string occurs {found} times in "
                         f"{mutant.file} (the code moved: update mutation/mutants.toml)")
    return text


def scratch_copy() -> Path:
    """The repository's files (tracked, and new ones not ignored) in a scratch folder."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                            check=True, capture_output=True).stdout.decode().split("\0")
    target = Path(tempfile.mkdtemp(prefix="graphmem-mutate-"))
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


def environment(store: dict[str, str] | None = None) -> dict[str, str]:
    """bin/test's, on ``store``'s Neo4j (home and ports) when given, else on the suite's."""
    return {**os.environ,
            "GRAPHMEM_HOME": os.environ.get("GRAPHMEM_TEST_HOME",
                                            str(ROOT / ".graphmem" / "test")),
            "GRAPHMEM_LOCAL_BOLT_PORT": os.environ.get("GRAPHMEM_TEST_BOLT_PORT", "17687"),
            "GRAPHMEM_LOCAL_HTTP_PORT": os.environ.get("GRAPHMEM_TEST_HTTP_PORT", "17474"),
            **(store or {}),
            "GRAPHMEM_RATE_LIMIT_PER_MINUTE": "0", "GRAPHMEM_WORKERS": "0",
            "PYTHONDONTWRITEBYTECODE": "1"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def own_store() -> Iterator[dict[str, str]]:
    """A Neo4j of this run's own: a fresh home in the checkout (ignored by git), free ports;
    stopped and deleted at the end. Its environment (home and ports) is yielded."""
    sys.path.insert(0, str(ROOT))  # this checkout's graphmem, whatever the venv holds
    from graphmem.core.config import Settings, get_settings
    from graphmem.local_neo4j import LocalNeo4j

    home = ROOT / ".graphmem" / f"mutate-{uuid.uuid4().hex[:8]}"
    bolt, http = _free_port(), _free_port()
    server = LocalNeo4j.from_settings(Settings(**{
        **get_settings().model_dump(), "home": home, "local_bolt_port": bolt,
        "local_http_port": http}))
    try:
        print(f"a fresh Neo4j for this run ({home.name}, bolt {bolt})", flush=True)
        server.start()
        yield {"GRAPHMEM_HOME": str(home), "GRAPHMEM_LOCAL_BOLT_PORT": str(bolt),
               "GRAPHMEM_LOCAL_HTTP_PORT": str(http)}
    finally:
        server.stop()
        shutil.rmtree(home, ignore_errors=True)


# The test tools and the libraries graphmem stands on, imported once by the runner: each
# pytest runs in a child forked from it, so it starts in a fraction of a second instead of
# four. graphmem and the tests are not among them: a child imports those from its copy,
# where the mutant is planted.
PRELOADED = ("pytest", "hypothesis", "_hypothesis_pytestplugin", "pytest_asyncio.plugin",
             "anyio.pytest_plugin", "neo4j", "httpx", "pydantic", "pydantic_settings",
             "starlette.applications", "strawberry", "dateparser")
OURS = ("graphmem", "graphmem_client", "tests", "mutation", "bench", "conftest")
PYTEST_ARGS = ("-x", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
               "--hypothesis-seed=0")


def preload() -> None:
    for name in PRELOADED:
        importlib.import_module(name)


def _pytest_child(tests: tuple[str, ...], copy: Path, env: dict[str, str], log: Path) -> None:
    """In the forked child: pytest over ``copy`` with ``env``, its output in ``log``."""
    code = 3
    try:
        os.setpgrp()  # a group of its own: a timeout ends what its tests started too
        out = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(out, 1)
        os.dup2(out, 2)
        for name in [m for m in sys.modules if m.split(".")[0] in OURS]:
            del sys.modules[name]  # the runner's own graphmem is the unmutated one
        os.chdir(copy)
        os.environ.clear()
        os.environ.update(env)
        extra = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
        sys.path[:0] = [str(copy), *extra]
        import pytest

        code = int(pytest.main([*PYTEST_ARGS, *tests]))
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


@dataclass
class Running:
    mutant: Mutant | None  # None: the baseline
    copy: Path
    log: Path
    began: float
    timeout: float
    original: str = ""  # the planted file's text, put back when it ends


def start(mutant: Mutant | None, tests: tuple[str, ...], copy: Path,
          env: dict[str, str], timeout: float) -> tuple[int, Running]:
    """Plants ``mutant`` in ``copy`` and forks its pytest; restored by ``finish``."""
    original = ""
    if mutant is not None:
        original = check(mutant, copy)
        (copy / mutant.file).write_text(original.replace(mutant.old, mutant.new), "utf-8")
    log = copy / ".mutant.log"
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        _pytest_child(tests, copy, env, log)
    return pid, Running(mutant, copy, log, time.perf_counter(), timeout, original)


def finish(running: Running, status: int | None) -> tuple[int | None, str]:
    """The child's exit code (None: it timed out) and output; the copy's file restored."""
    if running.mutant is not None:
        (running.copy / running.mutant.file).write_text(running.original, "utf-8")
    output = running.log.read_text("utf-8", errors="replace")
    return (None if status is None else os.waitstatus_to_exitcode(status)), output


def schedule(jobs: list[tuple[Mutant | None, tuple[str, ...]]], copies: list[Path],
             env: dict[str, str], timeout: float = TIMEOUT_S
             ) -> Iterator[tuple[Running, int | None, str]]:
    """Runs ``jobs`` as many at a time as there are copies; yields each as it ends (a job
    running longer than ``timeout`` seconds is killed: its code is None)."""
    pending, free = list(jobs), list(copies)
    running: dict[int, Running] = {}
    try:
        while pending or running:
            while pending and free:
                mutant, tests = pending.pop(0)
                pid, job = start(mutant, tests, free.pop(), env, timeout)
                running[pid] = job
            pid, waited = os.waitpid(-1, os.WNOHANG)
            status: int | None = waited
            timed_out = [p for p, job in running.items()
                         if time.perf_counter() - job.began > job.timeout]
            if pid == 0 and timed_out:
                pid = timed_out[0]
                _end_group(pid)
                os.waitpid(pid, 0)
                status = None
            elif pid == 0:
                time.sleep(0.02)
                continue
            job = running.pop(pid)
            free.append(job.copy)
            yield job, *finish(job, status)
    finally:  # stopped (SIGTERM, an error): what the running tests started goes with them
        for pid in running:
            _end_group(pid)


def _end_group(pid: int) -> None:
    """Kill a child and what it started (its own process group: a Neo4j of a test's own)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)


def baseline(mutants: list[Mutant], copy: Path, env: dict[str, str]) -> None:
    """The mutants' tests pass on the code as it is, or every mutant would look killed (an
    environment unlike the suite's once failed them all): stop, saying why. They run as one
    pytest, so its time bound is the sum's, not one mutant's (a slow baseline had read as a
    failing one)."""
    tests = tuple(sorted({test for m in mutants for test in m.tests}))
    timeout = BASELINE_TIMEOUT_S
    for _, code, output in schedule([(None, tests)], [copy], env, timeout):
        if code is None:
            sys.exit(f"the mutants' tests took over {timeout} s without a mutant")
        if code != 0:
            print(output[-3000:], file=sys.stderr)
            sys.exit("the mutants' tests fail without a mutant: fix that first")


def outcome(job: Running, code: int | None, output: str) -> Outcome:
    assert job.mutant is not None
    seconds = time.perf_counter() - job.began
    if code is None:
        return Outcome(job.mutant, True, seconds, "timeout")
    failed = [line.split(" ", 1)[1].split(" - ")[0] for line in output.splitlines()
              if line.startswith(("FAILED ", "ERROR tests"))]
    if code not in (0, 1) and not failed:  # 1: tests failed; else: could not run
        raise SystemExit(f"mutant {job.mutant.name!r}: pytest exited {code}\n{output[-3000:]}")
    killed = code != 0
    return Outcome(job.mutant, killed, seconds,
                   failed[0] if killed and failed else ("killed" if killed else "survived"))


def report(outcomes: list[Outcome], min_rate: float) -> bool:
    per: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in outcomes:
        per[outcome.mutant.module].append(outcome)
    ok = True
    print(f"\n{'module':<24}{'mutants':>8}{'killed':>8}{'equivalent':>12}{'kill rate':>11}")
    for module, done in sorted(per.items()):
        equivalent = [o for o in done if not o.killed and o.mutant.equivalent]
        counted = [o for o in done if o not in equivalent]
        killed = sum(o.killed for o in counted)
        rate = killed / len(counted) if counted else 1.0
        ok &= rate >= min_rate
        print(f"{module:<24}{len(done):>8}{killed:>8}{len(equivalent):>12}{rate:>10.0%}")
    total = [o for o in outcomes if o.killed or not o.mutant.equivalent]
    print(f"{'all':<24}{len(outcomes):>8}{sum(o.killed for o in total):>8}"
          f"{len(outcomes) - len(total):>12}"
          f"{sum(o.killed for o in total) / max(len(total), 1):>10.0%}")
    survivors = [o for o in outcomes if not o.killed]
    if survivors:
        print("\nsurvivors")
        for o in survivors:
            why = f"equivalent: {o.mutant.equivalent}" if o.mutant.equivalent else "A TEST GAP"
            print(f"  {o.mutant.module}: {o.mutant.name} ({why})")
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="only these mutants")
    parser.add_argument("--module", action="append", default=[], help="only these modules")
    parser.add_argument("--pure", action="store_true", help="only mutants needing no Neo4j")
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    parser.add_argument("--shared", action="store_true",
                        help="on the suite's test Neo4j, not a fresh one of the run's own")
    parser.add_argument("--jobs", type=int, default=1,
                        help="pure mutants run this many at a time (those over Neo4j, one)")
    parser.add_argument("--min-rate", type=float, default=0.9)
    args = parser.parse_args()
    mutants = [m for m in load()
               if (not args.names or m.name in args.names)
               and (not args.module or m.module in args.module)
               and (m.pure or not args.pure)]
    for mutant in mutants:
        check(mutant)
    if args.list:
        for m in mutants:
            print(f"{m.module:<24}{m.name}{'  (pure)' if m.pure else ''}")
        return
    # Stopped (a timeout's SIGTERM, a CI job cancelled): unwind, so the run's own Neo4j stops
    # and its home and the scratch copy go, instead of being left running.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    copies, outcomes = [scratch_copy() for _ in range(max(args.jobs, 1))], []
    needs_store = not args.shared and not all(m.pure for m in mutants)
    try:
        with own_store() if needs_store else contextlib.nullcontext() as store:
            outcomes = run_all(mutants, copies, environment(store))
    finally:
        for copy in copies:
            shutil.rmtree(copy, ignore_errors=True)
    sys.exit(0 if report(outcomes, args.min_rate) else 1)


def run_all(mutants: list[Mutant], copies: list[Path], env: dict[str, str]) -> list[Outcome]:
    """The pure mutants as many at a time as there are copies; those over Neo4j one at a
    time (they share its store: the embedding queue, the webhook dispatcher)."""
    preload()
    baseline(mutants, copies[0], env)
    outcomes: list[Outcome] = []
    for group, slots in (([m for m in mutants if m.pure], copies),
                         ([m for m in mutants if not m.pure], copies[:1])):
        for job, code, output in schedule([(m, m.tests) for m in group], slots, env):
            done = outcome(job, code, output)
            outcomes.append(done)
            print(f"[{len(outcomes)}/{len(mutants)}] "
                  f"{'killed ' if done.killed else 'SURVIVED'} {done.mutant.module}: "
                  f"{done.mutant.name} ({done.seconds:.0f} s; {done.how})", flush=True)
    return outcomes


if __name__ == "__main__":
    main()
