"""What the benchmarks share: the service in-process with a key, and removing what a run
wrote, so runs do not pile up."""

from __future__ import annotations

import asyncio
import os
import shutil
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

from graphmem.app import create_app
from graphmem.core.config import Settings
from graphmem.db.database import Database
from graphmem.local_neo4j import LocalNeo4j
from graphmem.security.auth import create_key

GraphQL = Callable[..., Awaitable[dict[str, Any]]]


def episodes(n: int, prefix: str) -> list[dict[str, Any]]:
    """``n`` user turns as `EpisodeInput`s, a second apart over 50 sessions, on 97 topics."""
    start = datetime(2026, 1, 1, tzinfo=UTC)
    return [{"externalId": f"{prefix}-{i}", "sessionId": f"s{i % 50}", "kind": "USER_MESSAGE",
             "actor": "user", "content": f"message number {i} about topic {i % 97}",
             "occurredAt": (start + timedelta(seconds=i)).isoformat()} for i in range(n)]


def fresh_local_neo4j(server: LocalNeo4j) -> LocalNeo4j:
    """Start ``server`` on an empty store. A reused one carries the Lucene tombstones of
    earlier runs' deleted nodes, and its vector queries slow down: 4.5 ms became 19.7 ms for
    the same raw query after one experiment's 15,000 embedded nodes were deleted.

    Only a bench home is emptied: a bench started with the test suite's environment (its
    GRAPHMEM_HOME wins over the bench's default) once stopped and emptied the suite's store
    under running tests."""
    if not server.home.parent.name.startswith("bench"):  # home: <GRAPHMEM_HOME>/neo4j
        raise SystemExit(f"refusing to empty {server.home}: not a bench home (GRAPHMEM_HOME "
                         "points at another store; run benches with bin/bench)")
    server.stop()
    shutil.rmtree(server.home / "data", ignore_errors=True)
    server.start()
    return server


@asynccontextmanager
async def serving(settings: Settings, db: Database, key_name: str) -> AsyncIterator[GraphQL]:
    """The real app, ready, called in-process over ASGI (no socket cost on either side of a
    comparison) with a key for `bench/*`; yields `gql(query, **variables)`, which fails on
    any GraphQL error."""
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        while not app.state.runtime.ready:
            await asyncio.sleep(0.1)
        token = await create_key(db, key_name, grants=["bench/*"], admin=False)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench",
                                     headers={"Authorization": f"Bearer {token}"}) as http:

            async def gql(query: str, **variables: Any) -> dict[str, Any]:
                body: dict[str, Any] = (await http.post(
                    "/graphql", json={"query": query, "variables": variables})).json()
                assert not body.get("errors"), body["errors"]
                return body

            yield gql


async def delete_namespaces(db: Database, namespaces: list[str],
                            key_name: str | None = None) -> None:
    """Delete every node of these namespaces (in bounded transactions) and the run's key."""
    async with db.driver.session() as session:
        for ns in namespaces:
            result = await session.run(
                "MATCH (n {ns: $ns}) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 2000 ROWS",
                {"ns": ns})
            await result.consume()
        if key_name is not None:
            result = await session.run("MATCH (k:ApiKey {name: $name}) DELETE k",
                                       {"name": key_name})
            await result.consume()


async def timed(work: Callable[[], Awaitable[Any]], repeat: int) -> list[float]:
    """Seconds each of ``repeat`` runs of ``work`` took."""
    samples = []
    for _ in range(repeat):
        began = time.perf_counter()
        await work()
        samples.append(time.perf_counter() - began)
    return samples


def percentile(samples: list[float], q: float) -> float:
    """The ``q`` quantile of ``samples`` (nearest rank), in their unit."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def rss_mb(pid: int | str = "self") -> float:
    """Resident memory of a process: by default this one, which hosts the service (app,
    driver, the embedding model for queries)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def background_rss_mb() -> float:
    """Resident memory of the background process embedding the backlog (its own copy of the
    model): this process's spawned child (the local Neo4j is a child too, not counted)."""
    total = 0.0
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            # The parent's pid is the second field after the name, which is in parentheses.
            parent = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
            if parent == os.getpid() and b"spawn_main" in (proc / "cmdline").read_bytes():
                total += rss_mb(proc.name)
        except (OSError, ValueError, IndexError):
            continue  # exited meanwhile
    return total
