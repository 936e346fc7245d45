"""graphmem vs raw driver Cypher on the same local Neo4j, measured in the same run.

    bin/bench [--episodes 5000] [--facts 2000] [--batch 500] [--lookups 300] [--searches 200]

Ingest: `recordEpisodes` through the real GraphQL app (in-process ASGI, so no socket cost is
counted on either side) vs raw `UNWIND … CREATE` of the same rows through the driver; once
as `serve` runs (the embedding worker in the same process, on the same CPUs) and once on the
write path alone (no embedder: the raw side embeds nothing either), that one a graphmem batch
and a raw batch in turn.
Facts: `assertFacts` (with evidence) vs raw `UNWIND` writing the same edges, statement nodes
and provenance links (no conflict resolution: the physical floor for this schema).
Reads, once the backlog is embedded: fact lookup, entity neighbourhood, 2-hop traversal and
provenance through GraphQL vs the equivalent Cypher, in alternating rounds. Memory: the
resident size of this process, which hosts the service, and of its background process.
Retrieval: `search` (all kinds, and episodes only) and `recall` through GraphQL vs one raw
vector-index query, vs one raw statement querying the episodes' fulltext and vector indexes,
and (all-kinds search) vs one raw statement querying both indexes of each of the four kinds:
the same index work done raw; each raw statement embeds its query with the same embedder
first, as the API does (a hybrid search needs the query's vector). Timed in alternating
rounds.
Both sides write six untimed batches first (a fresh Neo4j is slow on its first statements).
The bench Neo4j starts from an empty store every run (see `common.fresh_local_neo4j`).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import statistics
import time
import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("GRAPHMEM_HOME", str(ROOT / ".graphmem" / "bench"))
os.environ.setdefault("GRAPHMEM_LOCAL_BOLT_PORT", "27687")
os.environ.setdefault("GRAPHMEM_LOCAL_HTTP_PORT", "27474")
os.environ.setdefault("GRAPHMEM_RATE_LIMIT_PER_MINUTE", "0")  # measure the service, not it
os.environ.setdefault("GRAPHMEM_WORKERS", "0")  # no pipeline worker polling beside the runs

# bench/ is the script's directory:
from common import (  # noqa: E402
    GraphQL,
    background_rss_mb,
    delete_namespaces,
    episodes,
    fresh_local_neo4j,
    percentile,
    rss_mb,
    serving,
    timed,
)

from graphmem.core.config import get_settings  # noqa: E402
from graphmem.core.namespaces import lucene_key  # noqa: E402
from graphmem.db import migrations  # noqa: E402
from graphmem.db.database import Database, connect  # noqa: E402
from graphmem.local_neo4j import LocalNeo4j  # noqa: E402
from graphmem.observability import metrics  # noqa: E402
from graphmem.retrieval import background, embeddings  # noqa: E402

RAW_INGEST = """
UNWIND $rows AS row
MERGE (s:Session {ns: $ns, session_id: row.session_id})
CREATE (e:Episode) SET e = row, e.ns = $ns
CREATE (e)-[:IN_SESSION]->(s)
"""
RAW_LOOKUP = """
MATCH (s:Entity {ns: $ns, key: $key})<-[:SUBJECT]-(f:Fact {predicate: $predicate})
WHERE f.status IN ['active', 'disputed']
RETURN f {.*, embedding: null} AS fact ORDER BY f.recorded_at DESC LIMIT 50
"""
RAW_VECTOR = """
CALL db.index.vector.queryNodes('episode_embedding', 10, $v) YIELD node, score
RETURN node.id AS id, score
"""
RAW_HYBRID = """
CALL () {
  CALL db.index.fulltext.queryNodes('episode_search', $lucene, {limit: 10})
  YIELD node RETURN collect(node.id) AS bm25
}
CALL () {
  CALL db.index.vector.queryNodes('episode_embedding', 10, $v) YIELD node
  RETURN collect(node.id) AS nearest
}
RETURN bm25, nearest
"""
# The same two indexes for each kind an all-kinds search queries: the raw floor of its work.
RAW_HYBRID_ALL = "\n".join(
    f"""CALL () {{
  CALL db.index.fulltext.queryNodes('{kind}_search', $lucene_{kind}, {{limit: 10}})
  YIELD node RETURN collect(node.id) AS {kind}_bm25
}}
CALL () {{
  CALL db.index.vector.queryNodes('{kind}_embedding', 10, $v) YIELD node
  RETURN collect(node.id) AS {kind}_nearest
}}""" for kind in ("episode", "fact", "summary", "entity")) + "\nRETURN episode_bm25"
GQL_SEARCH = """query($ns: String!, $q: String!, $kinds: [SearchKind!]) {
  search(namespace: $ns, query: $q, limit: 10, kinds: $kinds) {
    hits { kind score matches { retriever rank } episode { id content } fact { id text } } } }"""
GQL_RECALL = """query($ns: String!, $q: String!) {
  recall(namespace: $ns, query: $q, tokenBudget: 500) {
    pieces { layer text tokens } tokensUsed plan { layer ran reason } } }"""
GQL_RECORD = """mutation($ns: String!, $eps: [EpisodeInput!]!) {
  recordEpisodes(namespace: $ns, episodes: $eps) { created } }"""
RAW_FACTS = """
UNWIND $rows AS r
MERGE (s:Entity {ns: $ns, key: r.s}) ON CREATE SET s.id = randomUUID(), s.name = r.s
MERGE (o:Entity {ns: $ns, key: r.o}) ON CREATE SET o.id = randomUUID(), o.name = r.o
CREATE (f:Fact {ns: $ns, id: randomUUID(), subject: r.s, predicate: 'likes', object: r.o,
                text: r.t, confidence: 1.0, status: 'active', recorded_at: datetime()})
CREATE (f)-[:SUBJECT]->(s)
CREATE (f)-[:OBJECT]->(o)
CREATE (s)-[:LIKES {fact_id: f.id, status: 'active'}]->(o)
WITH f, r
MATCH (e:Episode {ns: $ns, external_id: r.ev})
CREATE (f)-[:EVIDENCED_BY]->(e)
"""
GQL_FACTS = """mutation($ns: String!, $f: [FactInput!]!) {
  assertFacts(namespace: $ns, facts: $f) { outcome } }"""
GQL_NEIGHBOURS = """query($ns: String!, $s: String!) {
  entity(namespace: $ns, name: $s) { name factsOut { predicate object } } }"""
RAW_NEIGHBOURS = """
MATCH (s:Entity {ns: $ns, key: $key})<-[:SUBJECT]-(f:Fact)
WHERE f.retracted_at IS NULL
RETURN s.name AS name, f.predicate AS predicate, f.object AS object LIMIT 200
"""
GQL_TWO_HOPS = """query($ns: String!, $s: String!) {
  traverse(namespace: $ns, from: $s, depth: 2) { nodes { name } edges { fromId toId } } }"""
RAW_TWO_HOPS = """
MATCH (s:Entity {ns: $ns, key: $key})-[r1]-(a)
WHERE r1.fact_id IS NOT NULL AND r1.status = 'active'
OPTIONAL MATCH (a)-[r2]-(b)
WHERE r2.fact_id IS NOT NULL AND r2.status = 'active' AND r2 <> r1
RETURN a.name AS a, b.name AS b LIMIT 200
"""
GQL_PROVENANCE = """query($ns: String!, $id: ID!) {
  provenance(namespace: $ns, factId: $id) { fact { text } evidence { id content } } }"""
RAW_PROVENANCE = """
MATCH (f:Fact {ns: $ns, id: $id})
OPTIONAL MATCH (f)-[:EVIDENCED_BY]->(e:Episode)
RETURN f.text AS text, collect(e {.id, .content}) AS evidence
"""
GQL_LOOKUP = """query($ns: String!, $s: String!, $p: String!) {
  facts(namespace: $ns, where: {subject: $s, predicate: $p}, first: 50) {
    nodes { id subject predicate object confidence status recordedAt } } }"""


def raw_rows(batch: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"id": uuid.uuid4().hex, "external_id": e["externalId"],
             "session_id": e["sessionId"], "kind": "user_message", "actor": e["actor"],
             "content": e["content"], "occurred_at": datetime.fromisoformat(e["occurredAt"]),
             "recorded_at": datetime.now(UTC), "metadata": "{}"} for e in batch]


def facts_of(indices: range, prefix: str) -> list[dict[str, Any]]:
    """People liking things, each evidenced by the episode of the same number."""
    return [{"subject": f"person {i % 100}", "predicate": "likes", "object": f"thing {i % 37}",
             "evidence": [f"{prefix}-{i}"]} for i in indices]


def raw_facts_of(indices: range, prefix: str) -> list[dict[str, Any]]:
    """The same facts as raw `UNWIND` rows."""
    return [{"s": f"person {i % 100}", "o": f"thing {i % 37}", "ev": f"{prefix}-{i}",
             "t": f"person {i % 100} likes thing {i % 37}"} for i in indices]


ROUNDS = 5  # retrieval timings alternate in this many rounds
PROFILED = 50  # searches whose statements are timed apart
WARM_UP_BATCHES = 6  # two were not enough: the first measured writes ran at half speed


async def warm_up(gql: GraphQL, db: Database, batch: int) -> list[str]:
    """Untimed batches of each write on both sides, in namespaces of their own: a fresh
    Neo4j plans and compiles its first statements slowly, and without this the side that
    runs first pays for it. Returns the namespaces to delete (before anything embeds them:
    copies of the measured texts would crowd its nearest neighbours)."""
    ns_api, ns_raw = f"bench/warm-{uuid.uuid4().hex[:8]}", f"bench/warm-{uuid.uuid4().hex[:8]}"
    data = episodes(WARM_UP_BATCHES * batch, "warm")
    for i in range(0, len(data), batch):
        await gql(GQL_RECORD, ns=ns_api, eps=data[i:i + batch])
        await db.driver.execute_query(RAW_INGEST, {"ns": ns_raw,
                                                   "rows": raw_rows(data[i:i + batch])})
        await gql(GQL_FACTS, ns=ns_api, f=facts_of(range(i, i + batch), "warm"))
        await db.driver.execute_query(RAW_FACTS, {
            "ns": ns_raw, "rows": raw_facts_of(range(i, i + batch), "warm")})
    # Facts said again: re-asserting runs statements a first assertion does not (the raw side
    # has no such path), and the measured runs re-assert once facts outnumber the 3,700 pairs.
    for i in range(0, 2 * batch, batch):
        await gql(GQL_FACTS, ns=ns_api, f=facts_of(range(i, i + batch), "warm"))
    return [ns_api, ns_raw]


async def ingest(gql: GraphQL, ns: str, prefix: str,
                 args: argparse.Namespace) -> tuple[float, float]:
    """`recordEpisodes`, then `assertFacts` evidenced by those episodes, in batches:
    (episodes/s, facts/s)."""
    data = episodes(args.episodes, prefix)
    began = time.perf_counter()
    for i in range(0, len(data), args.batch):
        await gql(GQL_RECORD, ns=ns, eps=data[i:i + args.batch])
    episodes_rate = len(data) / (time.perf_counter() - began)
    facts = facts_of(range(min(args.facts, args.episodes)), prefix)
    began = time.perf_counter()
    for i in range(0, len(facts), args.batch):
        await gql(GQL_FACTS, ns=ns, f=facts[i:i + args.batch])
    return episodes_rate, len(facts) / (time.perf_counter() - began)


async def ingest_side_by_side(gql: GraphQL, db: Database, ns: str, ns_raw: str,
                              args: argparse.Namespace) -> dict[str, float]:
    """The same data through the API and by raw `UNWIND` through the driver, a batch of each
    in turn, so Neo4j's background work (checkpoints, index merges) falls on both alike:
    episodes/s and facts/s of each side."""
    data = episodes(args.episodes, "plain")
    spent = {"episodes": 0.0, "raw episodes": 0.0, "facts": 0.0, "raw facts": 0.0}

    async def clocked(side: str, work: Awaitable[Any]) -> None:
        began = time.perf_counter()
        await work
        spent[side] += time.perf_counter() - began

    for i in range(0, len(data), args.batch):
        await clocked("episodes", gql(GQL_RECORD, ns=ns, eps=data[i:i + args.batch]))
        await clocked("raw episodes", db.driver.execute_query(
            RAW_INGEST, {"ns": ns_raw, "rows": raw_rows(data[i:i + args.batch])}))
    count = min(args.facts, args.episodes)
    for i in range(0, count, args.batch):
        chunk = range(i, min(i + args.batch, count))
        await clocked("facts", gql(GQL_FACTS, ns=ns, f=facts_of(chunk, "plain")))
        await clocked("raw facts", db.driver.execute_query(
            RAW_FACTS, {"ns": ns_raw, "rows": raw_facts_of(chunk, "plain")}))
    return {side: (len(data) if "episodes" in side else count) / seconds
            for side, seconds in spent.items()}


async def bench(args: argparse.Namespace) -> None:
    settings = get_settings()
    server = LocalNeo4j.from_settings(settings)
    if args.keep_store:
        server.start()
    else:
        fresh_local_neo4j(server)
    db = await connect(settings)
    # The store's schema is complete before anything is planned: the embedder's vector
    # indexes, made by the second service below, flushed Neo4j's plan cache, and its first
    # measured batches planned every statement again (1.8 s of a 5.5 s assertFacts run).
    await migrations.apply(db)
    embedder = embeddings.make_embedder(settings)
    assert embedder is not None, "the retrieval rows need an embedder"
    await embeddings.ensure_space(db, embedder)
    ns_api, ns_raw = f"bench/{uuid.uuid4().hex[:8]}", f"bench/{uuid.uuid4().hex[:8]}-raw"
    # The write path alone first: no embedder, so no embedding worker sharing the CPUs (the
    # raw side embeds nothing either), side by side with the raw writes. Then deleted,
    # before a worker could embed it (the raw namespace stays: the reads use it).
    ns_plain = f"bench/{uuid.uuid4().hex[:8]}-plain"
    async with serving(settings.model_copy(update={"embedder": "none"}), db,
                       "bench-plain") as gql:
        warm = await warm_up(gql, db, args.batch)
        rates = await ingest_side_by_side(gql, db, ns_plain, ns_raw, args)
    plain_rate, plain_facts_rate = rates["episodes"], rates["facts"]
    raw_rate, raw_facts_rate = rates["raw episodes"], rates["raw facts"]
    await delete_namespaces(db, [ns_plain, *warm], key_name="bench-plain")
    async with serving(settings, db, "bench") as gql:
        api_rate, facts_rate = await ingest(gql, ns_api, "api", args)
        fact_ids = [row["id"] for row in (await db.driver.execute_query(
            "MATCH (f:Fact {ns: $ns}) RETURN f.id AS id LIMIT 500", {"ns": ns_api}))[0]]
        raw_fact_ids = [row["id"] for row in (await db.driver.execute_query(
            "MATCH (f:Fact {ns: $ns}) RETURN f.id AS id LIMIT 500", {"ns": ns_raw}))[0]]
        # Everything embedded first: the reads are measured on a quiet service (a backlog
        # being embedded would slow whichever side ran while it lasted), and every
        # retriever has its full input.
        await embeddings.embed_all_pending(db, embedder, 512)
        # That embedding ran in this script's own background process (one per Database since
        # the runtime owns process state), not the service's: stopped here, so the RSS row
        # counts the service's background process alone, as a deployment has it.
        await asyncio.to_thread(background.stop, db)
        counter = iter(range(10**9))

        async def api_lookup() -> None:
            await gql(GQL_LOOKUP, ns=ns_api, s=f"person {next(counter) % 100}", p="likes")

        async def raw_lookup() -> None:
            records, _, _ = await db.driver.execute_query(
                RAW_LOOKUP, {"ns": ns_api, "key": f"person {next(counter) % 100}",
                             "predicate": "likes"}, routing_="r")
            assert records

        def api_read(doc: str, arg: str) -> Callable[[], Awaitable[None]]:
            async def read() -> None:
                n = next(counter)
                if arg == "fact":
                    await gql(doc, ns=ns_api, id=fact_ids[n % len(fact_ids)])
                else:
                    await gql(doc, ns=ns_api, s=f"person {n % 100}")
            return read

        def raw_read(doc: str, arg: str) -> Callable[[], Awaitable[None]]:
            async def read() -> None:
                n = next(counter)
                params = {"ns": ns_raw, "id": raw_fact_ids[n % len(raw_fact_ids)]} \
                    if arg == "fact" else {"ns": ns_raw, "key": f"person {n % 100}"}
                records, _, _ = await db.driver.execute_query(doc, params, routing_="r")
                assert records
            return read

        read_works: dict[str, tuple[Callable[[], Awaitable[None]],
                                    Callable[[], Awaitable[None]]]] = {
            "fact lookup": (api_lookup, raw_lookup)}
        for label, api_doc, raw_doc, arg in (
                ("entity neighbourhood", GQL_NEIGHBOURS, RAW_NEIGHBOURS, "person"),
                ("2-hop traversal", GQL_TWO_HOPS, RAW_TWO_HOPS, "person"),
                ("provenance", GQL_PROVENANCE, RAW_PROVENANCE, "fact")):
            read_works[label] = (api_read(api_doc, arg), raw_read(raw_doc, arg))
        for api_work, raw_work in read_works.values():
            await timed(api_work, 30)
            await timed(raw_work, 30)  # warm both
        # Interleaved in rounds, so a busy moment of the machine falls on both sides alike.
        reads: dict[str, tuple[list[float], list[float]]] = {
            label: ([], []) for label in read_works}
        for _ in range(ROUNDS):
            for label, (api_work, raw_work) in read_works.items():
                reads[label][0].extend(await timed(api_work, max(1, args.lookups // ROUNDS)))
                reads[label][1].extend(await timed(raw_work, max(1, args.lookups // ROUNDS)))
        api_samples, raw_samples = reads.pop("fact lookup")
        service_mb, background_mb = rss_mb(), background_rss_mb()
        topics = iter(range(10**9))

        async def api_search() -> None:
            await gql(GQL_SEARCH, ns=ns_api, q=f"about topic {next(topics) % 97}")

        async def api_search_episodes() -> None:
            await gql(GQL_SEARCH, ns=ns_api, q=f"about topic {next(topics) % 97}",
                      kinds=["EPISODE"])

        async def api_recall() -> None:
            i = next(topics)
            await gql(GQL_RECALL, ns=ns_api, q=f"what does person {i % 100} like, and "
                                               f"what did I say about topic {i % 97}?")

        # The raw side embeds its query too, with the same embedder: a hybrid search cannot
        # run without the query's vector (the sentence transformer takes about 6 ms of it).
        async def vector_of(words: str) -> list[float]:
            return (await embedder.embed_queries([words]))[0]

        async def raw_vector() -> None:
            records, _, _ = await db.driver.execute_query(
                RAW_VECTOR, {"v": await vector_of(f"about topic {next(topics) % 97}")},
                routing_="r")
            assert records

        async def raw_hybrid() -> None:
            t = next(topics) % 97
            records, _, _ = await db.driver.execute_query(RAW_HYBRID, {
                "v": await vector_of(f"about topic {t}"),
                "lucene": f"+ns_key:{lucene_key(ns_api)} +content:(about topic {t})"},
                routing_="r")
            assert records[0]["bm25"] and records[0]["nearest"]

        async def raw_hybrid_all() -> None:
            t, key = next(topics) % 97, lucene_key(ns_api)
            words = f"about topic {t}"
            records, _, _ = await db.driver.execute_query(RAW_HYBRID_ALL, {
                "v": await vector_of(words), "lucene_episode": f"+ns_key:{key} +content:({words})",
                "lucene_fact": f"+ns_key:{key} +text:({words})",
                "lucene_summary": f"+ns_key:{key} +text:({words})",
                "lucene_entity": f"+ns_key:{key} +name:({words})"}, routing_="r")
            assert records[0]["episode_bm25"]

        works = {"search": api_search, "search episodes": api_search_episodes,
                 "recall": api_recall, "vector": raw_vector, "hybrid": raw_hybrid,
                 "hybrid all": raw_hybrid_all}
        for work in works.values():
            await timed(work, 20)  # warm
        # Interleaved in rounds, so a busy moment of the machine falls on all alike.
        samples: dict[str, list[float]] = {name: [] for name in works}
        for _ in range(ROUNDS):
            for name in samples:
                samples[name] += await timed(works[name], max(1, args.searches // ROUNDS))
        before = _statement_seconds()
        await timed(api_search, PROFILED)
        search_profile = _minus(_statement_seconds(), before)

        await delete_namespaces(db, [ns_api, ns_raw], key_name="bench")
    await db.close()

    print(f"\ngraphmem bench — {args.episodes} episodes in batches of {args.batch}, "
          f"{args.lookups} fact lookups; Neo4j {settings.local_bolt_port}, in-process ASGI\n")
    print(f"{'operation':<34}{'graphmem':>14}{'raw Cypher':>14}{'ratio':>9}")
    print(f"{'recordEpisodes (episodes/s)':<34}{api_rate:>14.0f}{raw_rate:>14.0f}"
          f"{api_rate / raw_rate:>8.2f}x")
    print(f"{'  write path only (no embedder)':<34}{plain_rate:>14.0f}{raw_rate:>14.0f}"
          f"{plain_rate / raw_rate:>8.2f}x")
    for label, q in (("fact lookup p50 (ms)", 0.5), ("fact lookup p95 (ms)", 0.95)):
        api_ms, raw_ms = (percentile(api_samples, q) * 1000,
                          percentile(raw_samples, q) * 1000)
        print(f"{label:<34}{api_ms:>14.2f}{raw_ms:>14.2f}{api_ms / raw_ms:>8.2f}x")
    print(f"{'fact lookup mean (ms)':<34}{statistics.mean(api_samples) * 1000:>14.2f}"
          f"{statistics.mean(raw_samples) * 1000:>14.2f}")
    print(f"{'assertFacts (facts/s)':<34}{facts_rate:>14.0f}{raw_facts_rate:>14.0f}"
          f"{facts_rate / raw_facts_rate:>8.2f}x")
    print(f"{'  write path only (no embedder)':<34}{plain_facts_rate:>14.0f}"
          f"{raw_facts_rate:>14.0f}{plain_facts_rate / raw_facts_rate:>8.2f}x")
    for label, (api_read_samples, raw_read_samples) in reads.items():
        for tag, q in (("p50", 0.5), ("p95", 0.95)):
            api_ms, raw_ms = (percentile(api_read_samples, q) * 1000,
                              percentile(raw_read_samples, q) * 1000)
            print(f"{label + ' ' + tag + ' (ms)':<34}{api_ms:>14.2f}{raw_ms:>14.2f}"
                  f"{api_ms / raw_ms:>8.2f}x")
    print(f"{'service process RSS (MB)':<34}{service_mb:>14.0f}")
    print(f"{'  its background process (MB)':<34}{background_mb:>14.0f}")
    print(f"\nretrieval over {args.episodes} episodes, {args.searches} queries each; baselines: "
          "one raw vector-index query; one raw statement querying the episodes' fulltext and "
          "vector indexes; one querying both indexes of all four kinds (each embeds its query "
          "first, with the same embedder, as search does)\n")
    comparisons = (
        ("vector", "vector", ("search", "recall")),
        ("fulltext + vector", "hybrid", ("search", "search episodes", "recall")),
        ("ft + vector, 4 kinds", "hybrid all", ("search",)))
    for heading, baseline, names in comparisons:
        print(f"{'':<34}{'graphmem':>14}{heading:>22}")
        for name in names:
            for label, q in (("p50", 0.5), ("p95", 0.95)):
                api_ms, raw_ms = (percentile(samples[name], q) * 1000,
                                  percentile(samples[baseline], q) * 1000)
                print(f"{name + ' ' + label + ' (ms)':<34}{api_ms:>14.2f}{raw_ms:>22.2f}"
                      f"{api_ms / raw_ms:>8.2f}x")
    print("\nwhere a search spends its Cypher time (mean ms per search, by statement)")
    for statement, seconds in sorted(search_profile.items(), key=lambda kv: -kv[1])[:8]:
        print(f"  {statement:<32}{seconds / PROFILED * 1000:>8.2f}")


def _statement_seconds() -> dict[str, float]:
    """Total seconds per named statement so far, from graphmem's own metrics."""
    totals: dict[str, float] = {}
    for family in metrics.CYPHER_SECONDS.collect():
        for sample in family.samples:
            if sample.name.endswith("_sum"):
                totals[sample.labels["statement"]] = sample.value
    return totals


def _minus(after: dict[str, float], before: dict[str, float]) -> dict[str, float]:
    return {k: v - before.get(k, 0.0) for k, v in after.items() if v - before.get(k, 0.0) > 0}


def main() -> None:
    logging.getLogger("httpx").setLevel(logging.WARNING)  # one line per request otherwise
    logging.getLogger("graphmem.access").setLevel(logging.WARNING)
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--episodes", type=int, default=5000)
    parser.add_argument("--batch", type=int, default=500)
    parser.add_argument("--lookups", type=int, default=300)
    parser.add_argument("--facts", type=int, default=2000)
    parser.add_argument("--searches", type=int, default=200)
    parser.add_argument("--keep-store", action="store_true",
                        help="reuse the bench Neo4j's store instead of starting empty")
    asyncio.run(bench(parser.parse_args()))


if __name__ == "__main__":
    main()
