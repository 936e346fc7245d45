"""Memory as it grows: quality, latency and cost, step by step, across many tenants.

    bin/bench scale --locomo ../shared/data/locomo-dev [--steps 10000,100000 | --episodes N]
                    [--per-namespace 100] [--clients 4] [--probe 500]

The store grows in steps of episodes. The three LoCoMo dev conversations live in it as three
namespaces (their turns recorded through the API and embedded by the service's embedder);
the rest is filler: tenants of ``--per-namespace`` turns each (10,000 tenants at 1M turns),
whose conversations are runs of the dev turns in other orders and times, with about 0.3 facts
per turn (people who like things and know each other, evidenced by a turn) and a summary per
session (a dev session's summary). Filler repeats the dev turns word for word: for search,
whose vector index spans namespaces, every question then has hundreds of identical
neighbours in other tenants at 1M, the hardest case there is.

Filler goes through graphmem's own write path (``recordEpisodes``, ``assertFacts``,
``writeSummary`` over GraphQL, ``--clients`` at once) with no embedding worker; its vectors
are then set by one raw statement: a filler turn gets the vector of the dev turn it repeats,
a fact, summary or entity that of its text, embedded once. Embedding a million turns at the
service's ~50 a second on 2 CPUs would take five and a half hours; the rate at which the
service writes *and* embeds is measured on its own at every step instead (``--probe`` new
turns in a new namespace, until its worker has embedded them all).

At each step, on a quiet service with its embedding worker: the dev split's search R@10
(episodes only) and the evidence ``recall`` delivers within 1,000 tokens; search and recall
p50/p95; fact lookup, provenance and 2-hop traversal p50/p95 over GraphQL, each beside the
raw driver statement on the same data; filler writes per second; written-and-embedded per
second; store bytes per episode; the store files against the page cache; the service's and
its background process's resident memory. The table gives each step's figure and its ratio
to the first step's.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import random
import statistics
import time
import uuid
import zipfile
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("GRAPHMEM_HOME", str(ROOT / ".graphmem" / "bench-scale"))
os.environ.setdefault("GRAPHMEM_LOCAL_BOLT_PORT", "27787")
os.environ.setdefault("GRAPHMEM_LOCAL_HTTP_PORT", "27574")
os.environ.setdefault("GRAPHMEM_RATE_LIMIT_PER_MINUTE", "0")  # measure the service, not it
os.environ.setdefault("GRAPHMEM_WORKERS", "0")  # no pipeline worker polling beside the runs

import locomo  # noqa: E402  (bench/ is the script's directory)
from common import (  # noqa: E402
    GraphQL,
    background_rss_mb,
    fresh_local_neo4j,
    percentile,
    rss_mb,
    serving,
    timed,
)
from run import (  # noqa: E402
    GQL_LOOKUP,
    GQL_PROVENANCE,
    GQL_TWO_HOPS,
    RAW_LOOKUP,
    RAW_PROVENANCE,
    RAW_TWO_HOPS,
)

from graphmem.core.config import Settings, get_settings  # noqa: E402
from graphmem.db import migrations  # noqa: E402
from graphmem.db.database import Database, connect  # noqa: E402
from graphmem.local_neo4j import LocalNeo4j  # noqa: E402
from graphmem.observability import metrics  # noqa: E402
from graphmem.retrieval import embeddings, transformer  # noqa: E402
from graphmem.retrieval.embeddings import Embedder, embedded_text  # noqa: E402
from graphmem.retrieval.transformer import TransformerEmbedder  # noqa: E402

DEV = "bench/scale/dev"
FILLER = "bench/scale/t"
PEOPLE, THINGS = 10, 7  # per tenant: its facts' entities
SESSION_TURNS = 20
READS = 100  # per read row and side, alternated in rounds
FACTS = """mutation($ns: String!, $facts: [FactInput!]!) {
  assertFacts(namespace: $ns, facts: $facts) { outcome } }"""
WARM_TURNS = 32  # written and embedded before the probe's clock starts
PENDING_FILLER = """
MATCH (n:EmbedPending) WHERE n.ns STARTS WITH $prefix
WITH n LIMIT $limit
RETURN elementId(n) AS element_id, 'Episode' IN labels(n) AS episode,
       coalesce(n.content, n.text, n.name, '') AS text
"""
STORE_VECTORS = """
UNWIND $rows AS row
MATCH (n:EmbedPending) WHERE elementId(n) = row.element_id
REMOVE n:EmbedPending, n.embed_lease_until
WITH n, row
CALL db.create.setNodeVectorProperty(n, 'embedding', row.vector)
"""

Figures = dict[str, float]


class Filler:
    """Tenants whose conversations repeat the dev turns, and what they are written with."""

    def __init__(self, conversations: list[locomo.Conversation], per_namespace: int) -> None:
        self.turns = [t for c in conversations for t in c.turns]
        self.summaries = [s for c in conversations for s in c.summaries.values()]
        self.per_namespace = per_namespace

    def tenant(self, n: int) -> tuple[str, list[dict[str, Any]], list[dict[str, Any]],
                                      list[dict[str, Any]]]:
        """Tenant ``n``'s namespace, turns, facts and summaries (the same for the same n)."""
        rng = random.Random(n)
        start = rng.randrange(len(self.turns) - self.per_namespace)
        began = datetime(2022, 1, 1, tzinfo=UTC) + timedelta(days=rng.randrange(900))
        turns = [{"externalId": f"t{i}", "sessionId": f"s{i // SESSION_TURNS}",
                  "kind": "USER_MESSAGE", "actor": t.speaker, "content": t.content,
                  "occurredAt": (began + timedelta(days=7 * (i // SESSION_TURNS),
                                                   seconds=30 * i)).isoformat()}
                 for i, t in enumerate(self.turns[start:start + self.per_namespace])]
        facts = [{"subject": f"person {i % PEOPLE}",
                  **({"predicate": "knows", "object": f"person {(i + 3) % PEOPLE}"} if i % 3 == 0
                     else {"predicate": "likes", "object": f"thing {i % THINGS}"}),
                  "evidence": [f"t{(i * 10) // 3}"]}
                 for i in range(len(turns) * 3 // 10)]
        sessions = sorted({t["sessionId"] for t in turns})
        summaries = [{"text": rng.choice(self.summaries), "sessionId": s,
                      "covers": [t["externalId"] for t in turns if t["sessionId"] == s]}
                     for s in sessions]
        return f"{FILLER}{n}", turns, facts, summaries


async def fill(gql: GraphQL, filler: Filler, tenants: range, clients: int) -> float:
    """Writes the tenants through the API, ``clients`` at once; turns written per second
    (with their facts and summaries)."""
    queue = list(tenants)
    began = time.perf_counter()

    async def client() -> None:
        while queue:
            ns, turns, facts, summaries = filler.tenant(queue.pop())
            await gql(locomo.RECORD, ns=ns, episodes=turns)
            await gql(FACTS, ns=ns, facts=facts)
            for summary in summaries:
                await gql(locomo.SUMMARY, ns=ns, summary=summary)

    await asyncio.gather(*(client() for _ in range(clients)))
    return len(tenants) * filler.per_namespace / (time.perf_counter() - began)


async def vectorise_filler(db: Database, embedder: Embedder,
                           by_content: dict[str, list[float]]) -> None:
    """Every waiting filler node gets its vector: a turn the one of the dev turn it repeats,
    anything else that of its text, embedded once."""
    by_text: dict[str, list[float]] = {}
    while rows := (await db.driver.execute_query(
            PENDING_FILLER, {"prefix": FILLER, "limit": 5000}))[0]:
        missing = sorted({r["text"] for r in rows if not r["episode"]} - by_text.keys())
        if missing:
            by_text.update(zip(missing, await embedder.embed(missing), strict=True))
        vectors = [{"element_id": r["element_id"],
                    "vector": by_content[r["text"]] if r["episode"] else by_text[r["text"]]}
                   for r in rows]
        await db.driver.execute_query(STORE_VECTORS, {"rows": vectors})


async def filler_tenants(db: Database) -> int:
    """How many filler tenants a kept store holds (they are numbered from 0)."""
    rows = (await db.driver.execute_query(
        "MATCH (e:Episode) WHERE e.ns STARTS WITH $prefix RETURN count(DISTINCT e.ns) AS n",
        {"prefix": FILLER}))[0]
    return int(rows[0]["n"])


async def dev_quality(gql: GraphQL, conversations: list[locomo.Conversation]) -> Figures:
    """R@10 of episode search and recall's evidence share on the dev split, with latencies."""
    r10, share, searched, recalled = [], [], [], []
    for c in conversations:
        ns, ref = f"{DEV}/{c.name}", c.reference.isoformat()
        for q in c.questions:
            began = time.perf_counter()
            body = await gql(locomo.SEARCH, ns=ns, q=q.text, kinds=["EPISODE"], ref=ref)
            searched.append(time.perf_counter() - began)
            r10.append(locomo.at_k(locomo.turns_of(body["data"]["search"]["hits"]),
                                   q.evidence, 10))
            began = time.perf_counter()
            body = await gql(locomo.RECALL, ns=ns, q=q.text, ref=ref)
            recalled.append(time.perf_counter() - began)
            delivered = locomo.turns_of(body["data"]["recall"]["pieces"])
            share.append(locomo.at_k(delivered, q.evidence, len(delivered)))
    return {"dev search R@10": statistics.mean(r10),
            "dev recall evidence share": statistics.mean(share),
            **_latencies("search", searched), **_latencies("recall", recalled)}


def _latencies(label: str, samples: list[float]) -> Figures:
    return {f"{label} p50 (ms)": percentile(samples, 0.5) * 1000,
            f"{label} p95 (ms)": percentile(samples, 0.95) * 1000}


async def reads(gql: GraphQL, db: Database, tenants: int) -> Figures:
    """Fact lookup, provenance and 2-hop traversal in random tenants, over GraphQL and by the
    raw statement, alternated in rounds so a busy moment falls on both alike."""
    rng = random.Random(7)
    sample = [f"{FILLER}{rng.randrange(tenants)}" for _ in range(50)]
    fact_ids = {ns: [r["id"] for r in (await db.driver.execute_query(
        "MATCH (f:Fact {ns: $ns}) RETURN f.id AS id LIMIT 20", {"ns": ns}))[0]]
        for ns in sample}
    likers = {ns: [(r["name"], r["key"]) for r in (await db.driver.execute_query(
        "MATCH (s:Entity {ns: $ns})<-[:SUBJECT]-(:Fact {predicate: 'likes'}) "
        "RETURN DISTINCT s.name AS name, s.key AS key ORDER BY key", {"ns": ns}))[0]]
        for ns in sample}
    counter = iter(range(10**9))

    def pick() -> tuple[str, tuple[str, str], str]:
        """A tenant, one of its people who like something (name and key) and one of its
        facts: the next in turn."""
        n = next(counter)
        ns = sample[n % len(sample)]
        return ns, likers[ns][n % len(likers[ns])], fact_ids[ns][n % len(fact_ids[ns])]

    async def api_lookup() -> None:
        ns, (person, _), _ = pick()
        await gql(GQL_LOOKUP, ns=ns, s=person, p="likes")

    async def api_provenance() -> None:
        ns, _, fact = pick()
        await gql(GQL_PROVENANCE, ns=ns, id=fact)

    async def api_two_hops() -> None:
        ns, (person, _), _ = pick()
        await gql(GQL_TWO_HOPS, ns=ns, s=person)

    def raw(statement: str, by_fact: bool = False) -> Callable[[], Awaitable[None]]:
        async def read() -> None:
            ns, (_, key), fact = pick()
            params = {"ns": ns, "predicate": "likes",
                      **({"id": fact} if by_fact else {"key": key})}
            records, _, _ = await db.driver.execute_query(statement, params, routing_="r")
            assert records
        return read

    works = {"fact lookup": (api_lookup, raw(RAW_LOOKUP)),
             "provenance": (api_provenance, raw(RAW_PROVENANCE, by_fact=True)),
             "2-hop traversal": (api_two_hops, raw(RAW_TWO_HOPS))}
    samples: dict[str, tuple[list[float], list[float]]] = {k: ([], []) for k in works}
    for api_work, raw_work in works.values():  # warm both
        await timed(api_work, 10)
        await timed(raw_work, 10)
    for _ in range(5):
        for label, (api_work, raw_work) in works.items():
            samples[label][0].extend(await timed(api_work, READS // 5))
            samples[label][1].extend(await timed(raw_work, READS // 5))
    figures: Figures = {}
    for label, (api_samples, raw_samples) in samples.items():
        figures.update(_latencies(label, api_samples))
        figures.update(_latencies(f"  raw {label}", raw_samples))
    return figures


async def written_and_embedded(gql: GraphQL, db: Database,
                               conversations: list[locomo.Conversation], size: int,
                               embedder: Embedder) -> Figures:
    """``size`` new turns recorded in a new namespace, and the seconds until the service's
    worker has embedded them all: turns per second. Beside it, the floor: the same texts
    embedded by the same model with nothing of graphmem around it; and the rate had writing
    the turns and embedding them at the floor taken the CPUs one after the other. Writing
    keeps every core busy (client, service, Neo4j), so on a small machine the embedding
    cannot overlap it: that rate is the limit there, not the floor alone."""
    turns = [{"externalId": f"{c.name}/{t.id}", "sessionId": f"{c.name}/{t.session}",
              "kind": "USER_MESSAGE", "actor": t.speaker, "content": t.content,
              "occurredAt": t.at.isoformat()} for c in conversations for t in c.turns]
    # A running service's embedding process is up with its model loaded: so is this one's
    # before the clock starts (starting it took 2-4 s of a 500-turn probe).
    await _written_then_embedded(gql, db, f"bench/scale/warm-{uuid.uuid4().hex[:6]}",
                                 turns[-WARM_TURNS:])
    ns = f"bench/scale/probe-{uuid.uuid4().hex[:6]}"
    began = time.perf_counter()
    writing = await _written_then_embedded(gql, db, ns, turns[:size])
    rate = size / (time.perf_counter() - began)
    texts = [embedded_text(r["content"], r["context"], r["actor"]) for r in (
        await db.driver.execute_query("MATCH (e:Episode {ns: $ns}) RETURN e.content AS "
                                      "content, e.context AS context, e.actor AS actor",
                                      {"ns": ns}))[0]]
    floor = onnx_floor(embedder, texts)
    serial = 1 / (writing / size + 1 / floor)
    return {"written and embedded /s": rate, "  raw onnxruntime /s": floor,
            "  embedded / raw onnxruntime": rate / floor,
            "  written alone /s": size / writing,
            "  writing, then the floor /s": serial,
            "  embedded / writing, then the floor": rate / serial}


def statement_seconds() -> dict[str, float]:
    """Seconds spent in each named Cypher statement so far by this process (the service
    runs in it): what a write probe's time went to."""
    return {sample.labels["statement"]: sample.value
            for family in metrics.CYPHER_SECONDS.collect() for sample in family.samples
            if sample.name.endswith("_sum")}


def _print_spent(before: dict[str, float], after: dict[str, float], writing: float) -> None:
    spent = sorted(((after[k] - before.get(k, 0.0), k) for k in after), reverse=True)
    print(f"{writing:.2f} s writing; Cypher seconds by statement meanwhile (the embedding "
          "process's too): " + ", ".join(f"{name} {s:.2f}" for s, name in spent[:6] if s > 0),
          flush=True)


async def _written_then_embedded(gql: GraphQL, db: Database, ns: str,
                                 episodes: list[dict[str, Any]]) -> float:
    """Record ``episodes`` into ``ns`` and wait until the service has embedded them; returns
    the seconds the writing took, and prints what its statements took."""
    spent = statement_seconds()
    began = time.perf_counter()
    for i in range(0, len(episodes), locomo.BATCH):
        await gql(locomo.RECORD, ns=ns, episodes=episodes[i:i + locomo.BATCH])
    writing = time.perf_counter() - began
    _print_spent(spent, statement_seconds(), writing)
    while (await db.driver.execute_query(
            "MATCH (n:EmbedPending {ns: $ns}) RETURN count(n) AS n", {"ns": ns}))[0][0]["n"]:
        await asyncio.sleep(0.2)
    return writing


def onnx_floor(embedder: Embedder, texts: list[str]) -> float:
    """Texts per second of the local model run by onnxruntime alone, as its documentation
    would have it: every core, spinning threads, batches of ``BATCH`` texts of like length,
    no pooling. The physical limit the service's embedding is held against (NaN for
    another embedder)."""
    if not isinstance(embedder, TransformerEmbedder):
        return float("nan")
    import numpy as np
    import onnxruntime
    from tokenizers import Tokenizer

    files = embedder.model.files
    with zipfile.ZipFile(embedder.jar) as archive:
        session = onnxruntime.InferenceSession(archive.read(f"{files}.onnx"),
                                               providers=["CPUExecutionProvider"])
        tokenizer = Tokenizer.from_str(archive.read(f"{files}-tokenizer.json").decode())
    types = "token_type_ids" in {i.name for i in session.get_inputs()}
    tokenizer.enable_truncation(transformer.MAX_TOKENS)
    tokenizer.enable_padding()
    ordered = sorted(texts, key=len)

    def forward(batch: list[str]) -> None:
        encoded = tokenizer.encode_batch(batch)
        ids = np.array([e.ids for e in encoded], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
        feed = {"input_ids": ids, "attention_mask": mask}
        session.run(None, feed | ({"token_type_ids": np.zeros_like(ids)} if types else {}))

    forward(ordered[:transformer.BATCH])  # warm, as the service's model is
    began = time.perf_counter()
    for start in range(0, len(ordered), transformer.BATCH):
        forward(ordered[start:start + transformer.BATCH])
    return len(texts) / (time.perf_counter() - began)


async def store_figures(db: Database, settings: Settings) -> Figures:
    """How many episodes the store holds, the bytes of its Neo4j data folder each, and its
    store files against the page cache. Neo4j Community reports no page cache hit ratio (no
    metrics, no JMX bean, PROFILE's page cache columns stay 0): while the store files fit
    in the page cache, reads are served from memory once warm."""
    episodes = (await db.driver.execute_query(
        "MATCH (e:Episode) RETURN count(e) AS n"))[0][0]["n"]
    data = settings.local_neo4j_home / "data"
    size = sum(p.stat().st_size for p in data.rglob("*") if p.is_file())
    store = sum(p.stat().st_size for p in (data / "databases").rglob("*") if p.is_file())
    return {"episodes in the store": float(episodes),
            "store bytes per episode": size / max(episodes, 1),
            "store files / page cache": store / _bytes(settings.local_pagecache)}


def _bytes(size: str) -> float:
    """Neo4j's memory setting ("256m", "2g") in bytes."""
    units = {"k": 2**10, "m": 2**20, "g": 2**30}
    return float(size[:-1]) * units[size[-1].lower()] if size[-1].isalpha() else float(size)


async def bench(args: argparse.Namespace) -> None:
    settings = get_settings()
    conversations = locomo.load(args.locomo)
    filler = Filler(conversations, args.per_namespace)
    dev_turns = sum(len(c.turns) for c in conversations)
    server = LocalNeo4j.from_settings(settings)
    if args.reuse_store:
        server.start()
    else:
        fresh_local_neo4j(server)
    db = await connect(settings)
    await migrations.apply(db)
    embedder = embeddings.make_embedder(settings)
    assert embedder is not None, "the bench measures vectors: it needs an embedder"
    await embeddings.ensure_space(db, embedder)
    table: dict[int, Figures] = {}
    try:
        if not args.reuse_store:
            async with serving(settings, db, "bench-scale") as gql:
                for c in conversations:
                    await locomo.ingest(gql, f"{DEV}/{c.name}", c, summaries=False)
                await locomo.embedded(db, settings)
        by_content = {r["content"]: r["embedding"] for r in (await db.driver.execute_query(
            "MATCH (e:Episode) WHERE e.ns STARTS WITH $dev RETURN e.content AS content, "
            "e.embedding AS embedding", {"dev": DEV}))[0]}
        tenants = await filler_tenants(db) if args.reuse_store else 0
        for step in args.steps:
            wanted = max(0, (step - dev_turns) // args.per_namespace)
            rate = float("nan")
            if wanted > tenants:
                async with serving(settings.model_copy(update={"embedding_worker": False}),
                                   db, f"bench-scale-fill-{step}") as gql:
                    rate = await fill(gql, filler, range(tenants, wanted), args.clients)
                await vectorise_filler(db, embedder, by_content)
                tenants = wanted
            started = time.perf_counter()
            async with serving(settings, db, f"bench-scale-{step}") as gql:
                figures = {"tenants": float(tenants + 3), "filler turns written /s": rate,
                           **await store_figures(db, settings),
                           **await dev_quality(gql, conversations),
                           **await reads(gql, db, max(tenants, 1)),
                           **await written_and_embedded(gql, db, conversations,
                                                        args.probe, embedder),
                           "service RSS (MB)": rss_mb(),
                           "background RSS (MB)": background_rss_mb()}
            table[step] = figures
            print(f"step {step}: measured in {time.perf_counter() - started:.0f} s", flush=True)
            print_table(table)
    finally:
        await db.close()
        if not args.keep_store:
            server.stop()
    if args.json:
        args.json.write_text(json.dumps({str(k): v for k, v in table.items()}, indent=1))


def print_table(table: dict[int, Figures]) -> None:
    steps = sorted(table)
    first = table[steps[0]]
    print(f"\n{'':<32}" + "".join(f"{s:>14,}{'':>8}" for s in steps))
    for name in first:
        cells = []
        for s in steps:
            value, base = table[s].get(name, float("nan")), first.get(name, float("nan"))
            ratio = f"{value / base:>6.2f}x" if base and s != steps[0] else ""
            cells.append(f"{value:>14.3f}{ratio:>8}" if value < 10 else
                         f"{value:>14.1f}{ratio:>8}")
        print(f"{name:<32}" + "".join(cells))


def tenfold_steps(episodes: int, first: int = 10_000) -> list[int]:
    """10,000, 100,000, … up to ``episodes``, which is the last step whatever its size."""
    steps = []
    while first < episodes:
        steps.append(first)
        first *= 10
    return [*steps, episodes]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--locomo", type=Path, default=ROOT.parent / "shared" / "data" /
                        "locomo-dev")
    sizes = parser.add_mutually_exclusive_group()
    sizes.add_argument("--steps", default=[10_000, 100_000],
                       type=lambda s: sorted(int(x) for x in s.split(",")))
    sizes.add_argument("--episodes", type=int,
                       help="grow to this many, in tenfold steps from 10,000 (a short form of "
                            "--steps: 1000000 is --steps 10000,100000,1000000)")
    parser.add_argument("--per-namespace", type=int, default=100)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--probe", type=int, default=500,
                        help="turns written at each step to time writing and embedding")
    parser.add_argument("--keep-store", action="store_true",
                        help="leave the bench Neo4j running with what the run wrote")
    parser.add_argument("--reuse-store", action="store_true",
                        help="measure the store a run with --keep-store left (or any earlier "
                             "run's, restarted): no refill below its size, e.g. to measure a "
                             "1M store again on a quiet machine")
    parser.add_argument("--json", type=Path, help="also write the table here")
    args = parser.parse_args()
    if args.episodes:
        args.steps = tenfold_steps(args.episodes)
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("graphmem.access").setLevel(logging.WARNING)
    asyncio.run(bench(args))


if __name__ == "__main__":
    main()
