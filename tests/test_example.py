"""The example an agent developer copies runs end to end against `graphmem serve`."""

from __future__ import annotations

import os
import subprocess
import sys

from graphmem.db.database import Database
from tests.support import ROOT
from tests.support.graph import delete_namespace
from tests.support.server import serving


def _run_example(name: str, url: str, key: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "examples" / name)], capture_output=True, text=True,
        timeout=60, env={**os.environ, "GRAPHMEM_URL": f"{url}/graphql", "GRAPHMEM_KEY": key})


async def test_agent_memory_example_runs(admin_token: str, db: Database) -> None:
    await delete_namespace(db, "demo/user-42")
    with serving() as url:
        run = _run_example("agent_memory.py", url, admin_token)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "why does the agent believe: Dana works at Acme Robotics <- Hi! I'm Dana." in out
    assert "memory now:" in out and "Dana works at Globex" in out.split("memory now:")[1]
    assert "Globex superseded Acme Robotics (until 2026-08-01)" in out
    assert "forgotten: {" in out
    lines = [line for line in (ROOT / "examples" / "agent_memory.py").read_text().splitlines()
             if line.strip() and not line.lstrip().startswith("#")]
    code = lines[lines.index('"""', 1) + 1:]
    assert len(code) < 40, "the agent loop example stays under 40 lines"


async def test_agent_tools_example_runs(admin_token: str, db: Database) -> None:
    """The tool-calling example: the definitions for both vendors and a scripted model turn
    dispatched against `graphmem serve`."""
    await delete_namespace(db, "demo/user-43")
    with serving() as url:
        run = _run_example("agent_tools.py", url, admin_token)
    await delete_namespace(db, "demo/user-43")
    assert run.returncode == 0, run.stderr
    assert "14 tools for OpenAI: " in run.stdout and "14 tools for Anthropic" in run.stdout
    assert "Dana lives in Porto" in run.stdout and "Dana works at Globex" in run.stdout
    assert "NOT_FOUND" in run.stdout  # the model's mistake answered as text, not raised
