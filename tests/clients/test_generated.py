"""clients/python/src/graphmem_client/_generated is what ariadne-codegen makes of the SDL and
clients/python/queries today: a schema change that breaks the client's queries fails here."""

from __future__ import annotations

import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from tests.support import ROOT

CLIENT = ROOT / "clients" / "python"
COMMITTED = CLIENT / "src" / "graphmem_client" / "_generated"
# ariadne-codegen needs graphql-core 3.2, the server 3.3: bin/_bootstrap.sh gives it a venv.
CODEGEN = ROOT / ".venv" / "codegen" / "bin" / "ariadne-codegen"


def _files(package: Path) -> dict[str, str]:
    return {path.name: path.read_text("utf-8") for path in sorted(package.glob("*.py"))}


def test_the_generated_client_matches_the_schema_and_queries(tmp_path: Path) -> None:
    if not CODEGEN.exists():
        pytest.fail(f"{CODEGEN} is missing: run bin/_bootstrap.sh (or python3 -m venv "
                    ".venv/codegen && .venv/codegen/bin/pip install './clients/python[codegen]')")
    config = tomllib.loads((CLIENT / "pyproject.toml").read_text("utf-8"))["tool"]
    settings = config["ariadne-codegen"]
    for folder in ("queries", "codegen"):
        shutil.copytree(CLIENT / folder, tmp_path / folder)
    (tmp_path / "out").mkdir()
    lines = [f"{key} = {_toml(value)}" for key, value in settings.items()
             if key not in ("schema_path", "target_package_path")]
    (tmp_path / "pyproject.toml").write_text("\n".join([
        "[tool.ariadne-codegen]",
        f"schema_path = {_toml(str(ROOT / 'schema' / 'graphmem.graphql'))}",
        'target_package_path = "out"', *lines]) + "\n", "utf-8")
    run = subprocess.run([str(CODEGEN)], cwd=tmp_path, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    fresh = _files(tmp_path / "out" / settings["target_package_name"])
    assert fresh == _files(COMMITTED), (
        "graphmem_client/_generated is stale: run `../../.venv/codegen/bin/ariadne-codegen` "
        "in clients/python and commit the result")


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'
