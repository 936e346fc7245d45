"""The example an agent developer copies runs end to end against `graphmem serve`."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

import httpx

from graphmem.db.database import Database
from tests.support import ROOT
from tests.support.graph import delete_namespace


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_agent_memory_example_runs(admin_token: str, db: Database) -> None:
    await delete_namespace(db, "demo/user-42")
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "graphmem.cli", "serve", "--port", str(port)],
        env=os.environ.copy(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        url = f"http://127.0.0.1:{port}"
        for _ in range(300):
            try:
                if httpx.get(f"{url}/readyz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        run = subprocess.run(
            [sys.executable, str(ROOT / "examples" / "agent_memory.py")], capture_output=True,
            text=True, timeout=60,
            env={**os.environ, "GRAPHMEM_URL": f"{url}/graphql", "GRAPHMEM_KEY": admin_token})
        assert run.returncode == 0, run.stderr
        assert "why does the agent believe: Dana works at Acme Robotics" in run.stdout
        assert "Dana works at Globex now; in June she worked at Acme Robotics" in run.stdout
        assert "Globex superseded Acme Robotics: recency" in run.stdout
    finally:
        server.terminate()
        server.wait(timeout=10)
        await delete_namespace(db, "demo/user-42")
