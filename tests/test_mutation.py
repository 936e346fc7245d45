"""The named mutants of ``bin/mutate`` stay honest: each still applies to the code it names,
and every one whose tests need no Neo4j is killed, in every run of the suite (the mutants
that need the database run with ``bin/mutate``; see the README)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from mutation.mutate import MUTANTS, ROOT, check, load


def test_every_mutant_still_applies() -> None:
    mutants = load()
    assert len(mutants) >= 50 and len({m.module for m in mutants}) >= 8
    for mutant in mutants:
        check(mutant)  # exits, naming the mutant, when its code has moved
        assert mutant.tests and mutant.old != mutant.new, mutant.name
        assert all((ROOT / t.split("::")[0]).is_file() for t in mutant.tests), mutant.name


@pytest.mark.own_processes  # bin/test runs it beside the rest
def test_the_pure_mutants_are_killed() -> None:
    done = subprocess.run([sys.executable, str(MUTANTS.with_name("mutate.py")), "--pure",
                           "--jobs", "2", "--min-rate", "1.0"], cwd=ROOT, capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "SURVIVED" not in done.stdout
