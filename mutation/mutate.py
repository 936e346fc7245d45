"""Named mutants: plant one small bug at a time and see whether the tests notice.

    bin/mutate [--module M ...] [--pure] [--list] [--shared] [--min-rate 0.9] [NAME ...]

Each mutant in ``mutants.toml`` names a module (the promise it attacks), a file, an exact
string that occurs once in it, its replacement, and the tests that should fail. The suite is
copied once to a scratch folder; each mutant is planted there, its tests run, and the file
restored. They run against a Neo4j of the run's own, started in a fresh home (free ports)
and deleted after, so nothing an earlier run or another suite left in a store (an encrypted
turn, an idle ephemeral session, a webhook of a namespace long gone) can decide a verdict;
``--shared`` runs them on the suite's test Neo4j instead (``bin/test``'s; quicker to start),
``--pure`` only the mutants whose tests need none. Property tests run with a fixed seed, so
a verdict is repeatable. A mutant is *killed* when its tests fail; a survivor is a test gap,
unless it is listed with ``equivalent = "why"`` (a change no test could see, e.g. a shortcut
whose fallback gives the same answer). Prints the kill rate per module; exits 1 when any
module's rate, equivalent mutants aside, is below ``--min-rate``.
"""

from __future__ import annotations

import argparse
import contextlib
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
TIMEOUT_S = 300


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


def baseline(mutants: list[Mutant], copy: Path, env: dict[str, str]) -> None:
    """The mutants' tests pass on the code as it is, or every mutant would look killed (an
    environment unlike the suite's once failed them all): stop, saying why."""
    tests = sorted({test for m in mutants for test in m.tests})
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
         "-p", "no:randomly", "--hypothesis-seed=0", *tests],
        cwd=copy, env=env, capture_output=True, text=True, timeout=TIMEOUT_S * 3)
    if done.returncode != 0:
        print(done.stdout[-3000:], file=sys.stderr)
        sys.exit("the mutants' tests fail without a mutant: fix that first")


def run(mutant: Mutant, copy: Path, env: dict[str, str]) -> Outcome:
    original = check(mutant)
    target = copy / mutant.file
    target.write_text(original.replace(mutant.old, mutant.new), "utf-8")
    began = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
             "-p", "no:randomly", "--hypothesis-seed=0", *mutant.tests],
            cwd=copy, env=env, capture_output=True, text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return Outcome(mutant, True, time.perf_counter() - began, "timeout")
    finally:
        target.write_text(original, "utf-8")
    failed = [line.split(" ", 1)[1].split(" - ")[0] for line in done.stdout.splitlines()
              if line.startswith(("FAILED ", "ERROR tests"))]
    if done.returncode not in (0, 1) and not failed:  # 1: tests failed; else: could not run
        raise SystemExit(f"mutant {mutant.name!r}: pytest exited {done.returncode}\n"
                         f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    killed = done.returncode != 0
    return Outcome(mutant, killed, time.perf_counter() - began,
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
    copy, outcomes = scratch_copy(), []
    needs_store = not args.shared and not all(m.pure for m in mutants)
    try:
        with own_store() if needs_store else contextlib.nullcontext() as store:
            outcomes = run_all(mutants, copy, environment(store))
    finally:
        shutil.rmtree(copy, ignore_errors=True)
    sys.exit(0 if report(outcomes, args.min_rate) else 1)


def run_all(mutants: list[Mutant], copy: Path, env: dict[str, str]) -> list[Outcome]:
    baseline(mutants, copy, env)
    outcomes = []
    for i, mutant in enumerate(mutants, start=1):
        outcome = run(mutant, copy, env)
        outcomes.append(outcome)
        print(f"[{i}/{len(mutants)}] {'killed ' if outcome.killed else 'SURVIVED'} "
              f"{mutant.module}: {mutant.name} ({outcome.seconds:.0f} s; {outcome.how})",
              flush=True)
    return outcomes


if __name__ == "__main__":
    main()
