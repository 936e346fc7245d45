"""graphmem next to Graphiti on the operations they share, measured in the same run.

    bin/bench graphiti [--facts 5000] [--queries 200]

The same synthetic facts are written by both (graphmem: `assertFacts` batches through
GraphQL, then the embedding worker's backlog; Graphiti: its LLM-free bulk path, which embeds
inside the write; on both sides the first batch warms up, untimed), and the same queries
searched (graphmem: `search(kinds: [FACT])`; Graphiti: `search`), both with the same local
embedder (WordLlama, 256 dimensions: graphmem runs with GRAPHMEM_EMBEDDER=wordllama here,
since its default sentence transformer is not in Graphiti's virtualenv). Each runs on its own
fresh Neo4j 5.26 with the same settings (Community has one user database, and both name a
label `Entity`). Graphiti runs in its own virtualenv (`.graphmem/bench/graphiti-venv`, made
on first use), since graphiti-core pins its own dependencies.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# Both sides get a fresh database every run (a reused one carries old index tombstones).
os.environ.setdefault("GRAPHMEM_HOME", str(ROOT / ".graphmem" / "bench-versus"))
os.environ.setdefault("GRAPHMEM_LOCAL_BOLT_PORT", "27689")
os.environ.setdefault("GRAPHMEM_LOCAL_HTTP_PORT", "27476")
os.environ.setdefault("GRAPHMEM_RATE_LIMIT_PER_MINUTE", "0")
os.environ.setdefault("GRAPHMEM_WORKERS", "0")

from common import delete_namespaces, fresh_local_neo4j, percentile, serving  # noqa: E402  (bench/ is the script's directory)

from graphmem.core.config import get_settings  # noqa: E402
from graphmem.db.database import connect  # noqa: E402
from graphmem.local_neo4j import LocalNeo4j  # noqa: E402
from graphmem.observability import logs  # noqa: E402
from graphmem.retrieval import embeddings  # noqa: E402

GRAPHITI = "graphiti-core==0.31.2"
VENV = ROOT / ".graphmem" / "bench" / "graphiti-venv"
PREDICATES = ["likes", "visited", "knows", "owns", "interested_in"]
THINGS = ["jazz", "Lisbon", "Porto", "chess", "sailing", "Acme Robotics", "Globex", "tea",
          "climbing", "Kyoto", "the violin", "Python", "gardening", "Oslo", "sourdough"]
ASSERT = """mutation($ns: String!, $facts: [FactInput!]!) {
  assertFacts(namespace: $ns, facts: $facts) { outcome } }"""
SEARCH = """query($ns: String!, $q: String!) {
  search(namespace: $ns, query: $q, limit: 10, kinds: [FACT]) { hits { fact { id text } } } }"""


def workload(facts: int, queries: int) -> dict[str, Any]:
    made = []
    for i in range(facts):
        subject, predicate = f"person {i // 5}", PREDICATES[i % len(PREDICATES)]
        obj = THINGS[(i * 7 + i // 5) % len(THINGS)]
        made.append({"subject": subject, "predicate": predicate, "object": obj,
                     "text": f"{subject} {predicate.replace('_', ' ')} {obj}"})
    asked = [f"what does person {i * 3 % (facts // 5)} like" if i % 2 else
             f"who is interested in {THINGS[i % len(THINGS)]}" for i in range(queries)]
    return {"facts": made, "queries": asked}


async def graphmem_side(work: dict[str, Any], batch: int) -> dict[str, float]:
    settings = get_settings().model_copy(update={"embedder": "wordllama"})
    server = fresh_local_neo4j(LocalNeo4j.from_settings(settings))
    db = await connect(settings)
    ns = f"bench/graphiti-{uuid.uuid4().hex[:8]}"
    async with serving(settings, db, "bench-graphiti") as gql:
        facts = [{k: f[k] for k in ("subject", "predicate", "object")}
                 for f in work["facts"]]
        await gql(ASSERT, ns=ns, facts=facts[:batch])  # warm-up batch, not timed
        await embeddings.embed_all_pending(db, embeddings.WordLlamaEmbedder(), 512)
        began = time.perf_counter()
        for i in range(batch, len(facts), batch):
            await gql(ASSERT, ns=ns, facts=facts[i:i + batch])
        written = time.perf_counter() - began
        await embeddings.embed_all_pending(db, embeddings.WordLlamaEmbedder(), 512)
        searchable = time.perf_counter() - began
        for query in work["queries"][:10]:
            await gql(SEARCH, ns=ns, q=query)
        samples = []
        for query in work["queries"]:
            began = time.perf_counter()
            await gql(SEARCH, ns=ns, q=query)
            samples.append((time.perf_counter() - began) * 1000)
    await delete_namespaces(db, [ns], key_name="bench-graphiti")
    await db.close()
    server.stop()
    timed_facts = len(facts) - batch
    return {"ingest_per_s": timed_facts / written, "searchable_per_s": timed_facts / searchable,
            "search_p50": statistics.median(samples), "search_p95": percentile(samples, 0.95)}


def graphiti_venv() -> Path:
    python = VENV / "bin" / "python"
    probe = [str(python), "-c", "import graphiti_core, wordllama"]
    if not python.exists() or subprocess.run(probe, capture_output=True).returncode != 0:
        print(f"installing {GRAPHITI} into {VENV} (once)…", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", GRAPHITI,
                        "wordllama>=0.4,<0.5", "httpx"], check=True)  # it imports httpx undeclared
    return python


def graphiti_side(work: dict[str, Any], batch: int) -> dict[str, float]:
    base = get_settings()
    home = ROOT / ".graphmem" / "bench-graphiti" / "neo4j"
    server = fresh_local_neo4j(LocalNeo4j(home=home, bolt_port=27688, http_port=27475,
                                          heap=base.local_heap, pagecache=base.local_pagecache))
    try:
        done = subprocess.run(
            [str(graphiti_venv()), str(ROOT / "bench" / "graphiti_side.py"),
             "--uri", server.bolt_uri, "--batch", str(batch)],
            input=json.dumps(work), capture_output=True, text=True, check=False,
            env={**os.environ, "GRAPHITI_NEO4J_PASSWORD": server.password()})
        if done.returncode != 0:
            raise SystemExit(f"graphiti side failed:\n{done.stderr[-3000:]}")
        result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
        return result
    finally:
        server.stop()


def main() -> None:
    logs.quiet_libraries()
    logging.getLogger("graphmem.access").setLevel(logging.WARNING)
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--facts", type=int, default=5000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--batch", type=int, default=500)
    args = parser.parse_args()
    work = workload(args.facts, args.queries)
    ours = asyncio.run(graphmem_side(work, args.batch))
    theirs = graphiti_side(work, args.batch)
    print(f"\ngraphmem vs Graphiti ({GRAPHITI}) — {args.facts} facts in batches of "
          f"{args.batch}, {args.queries} searches, same embedder, same Neo4j version\n")
    print(f"{'operation':<44}{'graphmem':>10}{'Graphiti':>10}{'ratio':>9}")
    rows = [("facts written per s (higher is better)", "ingest_per_s", True),
            ("facts written and embedded per s", "searchable_per_s", True),
            ("fact search p50 ms (lower is better)", "search_p50", False),
            ("fact search p95 ms", "search_p95", False)]
    for label, key, higher in rows:
        mine, other = ours[key], theirs.get(key, theirs["ingest_per_s"])
        speedup = mine / other if higher else other / mine
        print(f"{label:<44}{mine:>10.1f}{other:>10.1f}{speedup:>8.2f}x")
    print("\nratio: how many times faster graphmem is (below 1: slower). Graphiti embeds "
          "inside its write, so its two write rows are the same measurement.")


if __name__ == "__main__":
    main()
