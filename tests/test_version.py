"""One version number: the package, the client, `graphmem --version` and the changelog's
newest entry say the same."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import graphmem

ROOT = Path(__file__).resolve().parents[1]


def _project_version(pyproject: Path) -> str:
    return str(tomllib.loads(pyproject.read_text("utf-8"))["project"]["version"])


def test_every_place_names_the_same_version() -> None:
    newest = re.search(r"^## (\d+\.\d+\.\d+)", (ROOT / "CHANGELOG.md").read_text("utf-8"),
                       re.MULTILINE)
    assert newest is not None, "CHANGELOG.md has no version heading"
    assert {graphmem.__version__, _project_version(ROOT / "pyproject.toml"),
            _project_version(ROOT / "clients" / "python" / "pyproject.toml")} == {newest[1]}


def test_the_command_prints_it() -> None:
    for flag in ("--version", "-V"):
        done = subprocess.run([sys.executable, "-m", "graphmem", flag], capture_output=True,
                              text=True, timeout=60, check=True)
        assert done.stdout == f"graphmem {graphmem.__version__}\n"
