"""Export and import throughput next to raw driver Cypher moving the same rows.

    bin/bench portability [--episodes 100000]

On the bench Neo4j started empty: ``--episodes`` turns over 50 sessions are recorded, then
`graphmem export` writes the namespace to a file and `graphmem import --into` reads it into
another one (the same functions the commands run). The baselines, measured in the same run:
the driver streaming the same nodes and relationships to a file, and the driver loading the
same rows with UNWIND … CREATE, 1,000 a transaction. graphmem's import also rebuilds each
session's chain and its turns' search copies, which the raw load does not.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("GRAPHMEM_HOME", str(ROOT / ".graphmem" / "bench"))
os.environ.setdefault("GRAPHMEM_LOCAL_BOLT_PORT", "27687")
os.environ.setdefault("GRAPHMEM_LOCAL_HTTP_PORT", "27474")

from common import episodes, fresh_local_neo4j  # noqa: E402  (bench/ is the script's directory)

from graphmem.core.config import get_settings  # noqa: E402
from graphmem.core.namespaces import Namespace  # noqa: E402
from graphmem.db import migrations  # noqa: E402
from graphmem.db.database import Database, connect  # noqa: E402
from graphmem.episodes.store import EpisodeKind, NewEpisode, record  # noqa: E402
from graphmem.local_neo4j import LocalNeo4j  # noqa: E402
from graphmem.portability.exporting import export  # noqa: E402
from graphmem.portability.format import line  # noqa: E402
from graphmem.portability.importing import import_lines  # noqa: E402

RAW_NODES = """MATCH (n:Episode {ns: $ns}) RETURN properties(n) AS props
UNION ALL MATCH (n:Session {ns: $ns}) RETURN properties(n) AS props"""
RAW_RELS = """MATCH (e:Episode {ns: $ns})-[r:IN_SESSION]->(s)
RETURN e.id AS from, s.session_id AS to"""
RAW_SESSIONS = "UNWIND $rows AS row CREATE (s:Session) SET s = row"
RAW_EPISODES = "UNWIND $rows AS row CREATE (e:Episode) SET e = row"
RAW_LINKS = """UNWIND $rows AS row
MATCH (e:Episode {id: row.from}) MATCH (s:Session {ns: $ns, session_id: row.to})
CREATE (e)-[:IN_SESSION]->(s)"""


async def fill(db: Database, ns: Namespace, n: int) -> None:
    data = episodes(n, "p")
    for start in range(0, n, 1000):
        await record(db, ns, [NewEpisode(
            content=e["content"], kind=EpisodeKind.USER_MESSAGE,
            occurred_at=datetime.fromisoformat(e["occurredAt"]), external_id=e["externalId"],
            session_id=e["sessionId"], actor=e["actor"]) for e in data[start:start + 1000]])


async def graphmem_export(db: Database, ns: Namespace, path: Path) -> int:
    lines = 0
    with path.open("w", encoding="utf-8") as sink:
        async for item in export(db, ns):
            sink.write(line(item))
            lines += 1
    return lines


async def raw_export(db: Database, ns: str, path: Path) -> list[list[dict[str, Any]]]:
    """The driver streaming the same nodes and links to a file; returns them for the load."""
    nodes: list[dict[str, Any]] = []
    rels: list[dict[str, Any]] = []
    with path.open("w", encoding="utf-8") as sink:
        async with db.driver.session(database=db.name) as session:
            for query, into in ((RAW_NODES, nodes), (RAW_RELS, rels)):
                result = await session.run(query, {"ns": ns})
                async for row in result:
                    data = {k: v.isoformat() if hasattr(v, "isoformat") else v
                            for k, v in dict(row).items()}
                    into.append(dict(row))
                    sink.write(json.dumps(data, default=str) + "\n")
    return [nodes, rels]


async def raw_load(db: Database, ns: str, nodes: list[dict[str, Any]],
                   rels: list[dict[str, Any]]) -> None:
    props = [{**row["props"], "ns": ns} for row in nodes]
    for row in props:
        if "id" in row:
            row["id"] = f"raw-{row['id']}"
    sessions = [p for p in props if "session_id" in p and "content" not in p]
    turns = [p for p in props if "content" in p]
    links = [{"from": f"raw-{r['from']}", "to": r["to"]} for r in rels]
    async with db.driver.session(database=db.name) as session:
        for query, rows in ((RAW_SESSIONS, sessions), (RAW_EPISODES, turns), (RAW_LINKS, links)):
            for start in range(0, len(rows), 1000):
                chunk = rows[start:start + 1000]
                await session.execute_write(_run, query, chunk, ns)


async def _run(tx: Any, query: str, rows: list[dict[str, Any]], ns: str) -> None:
    await (await tx.run(query, {"rows": rows, "ns": ns})).consume()


async def timed(work: Any) -> tuple[float, Any]:
    began = time.perf_counter()
    result = await work
    return time.perf_counter() - began, result


def _lines_of(path: Path) -> Iterator[str]:
    with path.open(encoding="utf-8") as lines:
        yield from lines


async def bench(args: argparse.Namespace) -> None:
    settings = get_settings().model_copy(update={"embedder": "none"})
    fresh_local_neo4j(LocalNeo4j.from_settings(settings))
    db = await connect(settings)
    await migrations.apply(db)
    source = Namespace("bench/export")
    began = time.perf_counter()
    await fill(db, source, args.episodes)
    print(f"recorded {args.episodes} episodes in {time.perf_counter() - began:.0f} s",
          file=sys.stderr)
    with tempfile.TemporaryDirectory() as folder:
        file, raw_file = Path(folder) / "export.jsonl", Path(folder) / "raw.jsonl"
        out_s, lines = await timed(graphmem_export(db, source, file))
        raw_out_s, (nodes, rels) = await timed(raw_export(db, source, raw_file))
        size = file.stat().st_size
        in_s, result = await timed(import_lines(  # reads the file twice: check, then write
            db, lambda: _lines_of(file), into="bench/import"))
        raw_in_s, _ = await timed(raw_load(db, "bench/raw", nodes, rels))
    await db.close()
    print(f"\n{args.episodes} episodes over 50 sessions: {lines} lines, {size / 1e6:.1f} MB; "
          f"{os.cpu_count()} CPUs\n")
    print(f"{'':<10}{'graphmem s':>12}{'episodes/s':>12}{'raw s':>9}{'raw episodes/s':>16}"
          f"{'ratio':>8}")
    for label, ours, raw in (("export", out_s, raw_out_s), ("import", in_s, raw_in_s)):
        print(f"{label:<10}{ours:>12.1f}{args.episodes / ours:>12.0f}{raw:>9.1f}"
              f"{args.episodes / raw:>16.0f}{raw / ours:>7.2f}x")
    print(f"\nimport: {result.nodes} nodes, {result.relationships} relationships (ratio: "
          "graphmem's speed over raw's, as in bin/bench)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--episodes", type=int, default=100_000)
    asyncio.run(bench(parser.parse_args()))


if __name__ == "__main__":
    main()
