"""`graphmem export` and `graphmem import` as a user runs them, on the suite's Neo4j."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from graphmem.db.database import Database
from tests.support.client import GraphQLClient
from tests.support.graph import delete_namespace, namespace_contents
from tests.support.workloads import fill


def graphmem(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "graphmem", *args], capture_output=True,
                          text=True, timeout=120)


async def test_a_namespace_goes_out_to_a_file_and_back_into_another(
        db: Database, gql: GraphQLClient, ns: str, tmp_path: Path) -> None:
    await fill(gql, ns)
    file = tmp_path / "memory.jsonl"
    out = graphmem("export", ns, "--output", str(file))
    assert out.returncode == 0, out.stderr
    records = [json.loads(line) for line in file.read_text().splitlines()]
    assert records[0]["namespace"] == ns and "end" in records[-1]
    other = f"{ns}-copy"
    try:
        done = graphmem("import", str(file), "--into", other)
        assert done.returncode == 0, done.stderr
        assert f"imported {records[-1]['end']['nodes']} nodes" in done.stderr
        assert len(await namespace_contents(db, other)) == records[-1]["end"]["nodes"]
        to_stdout = graphmem("export", other)
        assert [json.loads(line)["node"] for line in to_stdout.stdout.splitlines()[1:-1]
                if "node" in line] == [r["node"] for r in records[1:-1] if "node" in r]
    finally:
        await delete_namespace(db, other)


async def test_a_bad_file_is_refused_with_its_line(tmp_path: Path) -> None:
    file = tmp_path / "bad.jsonl"
    file.write_text('{"format": "graphmem-export", "version": 1, "namespace": "x/y", '
                    '"decrypted": false}\n{"node": "Nope", "key": "k"}\n')
    done = graphmem("import", str(file))
    assert done.returncode == 1 and "graphmem: line 2: unknown label 'Nope'" in done.stderr


async def test_mem0_memories_import_from_the_command_line(db: Database, ns: str) -> None:
    sample = Path(__file__).parent / "samples" / "mem0_get_all.json"
    done = graphmem("import", str(sample), "--from", "mem0", "--into", ns, "--user", "bob")
    assert done.returncode == 0, done.stderr
    assert "imported 3 nodes and 1 relationships" in done.stderr  # actor, session, episode
    refused = graphmem("import", str(sample), "--from", "mem0")
    assert refused.returncode != 0 and "--into" in refused.stderr
