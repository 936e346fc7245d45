"""Conflict strategies are declared in one place (``resolution.rule``): each member of
``policies.Strategy`` has its case there, who wins and why together, and a member without
one fails type checking instead of explaining a dispute as "settled manually"."""

from __future__ import annotations

import os
from pathlib import Path

from mypy import api as mypy

import graphmem
from graphmem.facts import resolution
from graphmem.facts.policies import Strategy
from tests.facts.test_resolution import claim, version
from tests.support import ROOT

PACKAGE = Path(graphmem.__file__).resolve().parent


def test_every_strategy_has_its_rule() -> None:
    new, old = claim("b", 0, confidence=0.9), version("a", "a", 2, confidence=0.5)
    manual = resolution.rule(Strategy.MANUAL)
    for strategy in Strategy:
        decided = resolution.rule(strategy)
        assert isinstance(decided, resolution.Rule)
        if strategy is not Strategy.MANUAL:
            assert decided.why(new, old) != manual.why(new, old), strategy
    assert manual.winner(new, old) is None


def _package_with(tmp_path: Path, member: str, case: str | None) -> Path:
    """graphmem as it is (linked), but for a strategy added to the enum and, if ``case``,
    its case added to ``rule``: what a person adding one writes."""
    root = tmp_path / "graphmem"
    root.mkdir()
    for entry in PACKAGE.iterdir():
        if entry.name not in ("facts", "__pycache__"):
            (root / entry.name).symlink_to(entry)
    (root / "facts").mkdir()
    for entry in (PACKAGE / "facts").iterdir():
        if entry.name not in ("policies.py", "resolution.py", "__pycache__"):
            (root / "facts" / entry.name).symlink_to(entry)
    policies = (PACKAGE / "facts" / "policies.py").read_text()
    anchor = '    MANUAL = "manual"'
    assert policies.count(anchor) == 1
    (root / "facts" / "policies.py").write_text(
        policies.replace(anchor, f'{anchor}\n    {member.upper()} = "{member}"'))
    rules = (PACKAGE / "facts" / "resolution.py").read_text()
    if case is not None:
        anchor = "        case _:\n            assert_never(strategy)"
        assert rules.count(anchor) == 1
        rules = rules.replace(anchor, f"{case}\n{anchor}")
    (root / "facts" / "resolution.py").write_text(rules)
    return root / "facts" / "resolution.py"


def _mypy(module: Path, tmp_path: Path) -> tuple[str, int]:
    here = Path.cwd()
    os.chdir(tmp_path)  # the copy's package is found first, from where mypy looks
    try:
        out, err, status = mypy.run([
            str(module.relative_to(tmp_path)), "--config-file", str(ROOT / "pyproject.toml"),
            "--cache-dir", str(tmp_path / ".mypy_cache"), "--follow-imports", "silent"])
    finally:
        os.chdir(here)
    return out + err, status


def test_a_strategy_without_its_case_fails_type_checking(tmp_path: Path) -> None:
    out, status = _mypy(_package_with(tmp_path, "oldest", None), tmp_path)
    assert status == 1 and "resolution.py" in out and "assert_never" in out, out


def test_a_strategy_is_added_in_one_place(tmp_path: Path) -> None:
    case = ("        case Strategy.OLDEST:\n"
            "            return Rule(lambda claim, v: \"old\", lambda w, l: \"held first\")")
    out, status = _mypy(_package_with(tmp_path, "oldest", case), tmp_path)
    assert status == 0, out
