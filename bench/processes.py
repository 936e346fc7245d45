"""One service process or two on the same Neo4j: throughput as clients see it.

    bin/bench processes [--episodes 6000] [--batch 100] [--clients 8] [--searches 400]

For 1 and then 2 `graphmem serve` processes (each with its embedding worker, on the bench
Neo4j started empty), then 1 serving process that leaves embedding to a `graphmem worker`
(GRAPHMEM_EMBEDDING_WORKER=false), ``--clients`` concurrent clients spread over them record
``--episodes`` in batches over HTTP; printed: episodes recorded per second, episodes written
and embedded per second (until the embedding queue is empty: write-until-searchable), and
searches per second. Every figure comes from this run. The processes share the machine's
CPUs with Neo4j and the clients, so read the ratio with the CPU count in mind.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("GRAPHMEM_HOME", str(ROOT / ".graphmem" / "bench"))
os.environ.setdefault("GRAPHMEM_LOCAL_BOLT_PORT", "27687")
os.environ.setdefault("GRAPHMEM_LOCAL_HTTP_PORT", "27474")
sys.path.insert(0, str(ROOT))  # for the tests' `graphmem serve` subprocess helper

from common import episodes, fresh_local_neo4j  # noqa: E402  (bench/ is the script's directory)

from graphmem.core.config import get_settings  # noqa: E402
from graphmem.db.database import Database, connect  # noqa: E402
from graphmem.local_neo4j import LocalNeo4j  # noqa: E402
from graphmem.retrieval import embeddings  # noqa: E402
from graphmem.security.auth import create_key  # noqa: E402
from tests.support.server import serving  # noqa: E402

RECORD = """mutation($ns: String!, $eps: [EpisodeInput!]!) {
  recordEpisodes(namespace: $ns, episodes: $eps) { created } }"""
SEARCH = """query($ns: String!, $q: String!) {
  search(namespace: $ns, query: $q, limit: 10) { hits { kind } } }"""


# Setups measured: serving processes, and whether a `graphmem worker` embeds instead of them.
SETUPS = {"1 process": (1, False), "2 processes": (2, False),
          "1 serving + 1 worker": (1, True)}


async def _drained(db: Database) -> None:
    while await embeddings.pending_count(db):
        await asyncio.sleep(0.05)


async def _run(urls: list[str], token: str, db: Database, ns: str,
               args: argparse.Namespace) -> dict[str, float]:
    headers = {"Authorization": f"Bearer {token}"}
    data = episodes(args.episodes, ns)
    batches = [data[i:i + args.batch] for i in range(0, len(data), args.batch)]
    async with httpx.AsyncClient(timeout=120, headers=headers) as http:

        async def post(n: int, query: str, **variables: Any) -> None:
            body = (await http.post(f"{urls[n % len(urls)]}/graphql",
                                    json={"query": query, "variables": variables})).json()
            assert not body.get("errors"), body["errors"]

        async def writer(c: int) -> None:
            for n in range(c, len(batches), args.clients):
                await post(n, RECORD, ns=ns, eps=batches[n])

        async def searcher(c: int) -> None:
            for n in range(c, args.searches, args.clients):
                await post(n, SEARCH, ns=ns, q=f"about topic {n % 97}")

        began = time.perf_counter()
        await asyncio.gather(*(writer(c) for c in range(args.clients)))
        recorded = time.perf_counter() - began
        await _drained(db)
        searchable = time.perf_counter() - began
        began = time.perf_counter()
        await asyncio.gather(*(searcher(c) for c in range(args.clients)))
        searched = time.perf_counter() - began
    return {"recorded": len(data) / recorded, "searchable": len(data) / searchable,
            "searches": args.searches / searched}


async def bench(args: argparse.Namespace) -> None:
    settings = get_settings()
    fresh_local_neo4j(LocalNeo4j.from_settings(settings))
    db = await connect(settings)
    token = await create_key(db, "bench-processes", grants=["bench/*"], admin=False)
    results: dict[str, dict[str, float]] = {}
    for setup, (processes, separate) in SETUPS.items():
        with ExitStack() as stack:
            urls = [stack.enter_context(serving(
                GRAPHMEM_PROCESSES=str(processes), GRAPHMEM_RATE_LIMIT_PER_MINUTE="0",
                GRAPHMEM_WORKERS="0", GRAPHMEM_EMBEDDING_WORKER=str(not separate).lower()))
                for _ in range(processes)]
            if separate:
                stack.enter_context(_worker())
            await _run(urls, token, db, f"bench/warm-{len(results)}",
                       argparse.Namespace(**{**vars(args), "episodes": args.batch * 4,
                                             "searches": args.clients * 4}))
            results[setup] = await _run(urls, token, db, f"bench/p{len(results)}", args)
    await db.close()
    print(f"\n{args.episodes} episodes in batches of {args.batch}, {args.searches} searches, "
          f"{args.clients} concurrent clients over HTTP; {os.cpu_count()} CPUs shared by the "
          "processes, Neo4j and the clients; ratios against 1 process\n")
    print(f"{'':<34}" + "".join(f"{setup:>24}" for setup in SETUPS))
    for label, key in (("episodes recorded per s", "recorded"),
                       ("episodes written + embedded per s", "searchable"),
                       ("searches per s", "searches")):
        one = results["1 process"][key]
        print(f"{label:<34}" + "".join(
            f"{results[s][key]:>16.0f} ({results[s][key] / one:.2f}x)" for s in SETUPS))


@contextmanager
def _worker() -> Iterator[None]:
    """`graphmem worker`, embedding for serving processes that do not."""
    worker = subprocess.Popen([sys.executable, "-m", "graphmem", "worker"],
                              env={**os.environ, "GRAPHMEM_WORKERS": "0",
                                   "GRAPHMEM_LOG_LEVEL": "WARNING"},
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        yield
    finally:
        worker.terminate()
        worker.wait(timeout=30)


def main() -> None:
    logging.getLogger("httpx").setLevel(logging.WARNING)
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--episodes", type=int, default=6000)
    parser.add_argument("--batch", type=int, default=100)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--searches", type=int, default=400)
    asyncio.run(bench(parser.parse_args()))


if __name__ == "__main__":
    main()
