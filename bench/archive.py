"""Tiered storage: what archiving saves, how fast it moves and rehydrates, and what search
costs with part of a namespace archived.

    bin/bench archive [--episodes 10000] [--rehydrate 100] [--queries 100]

On the bench Neo4j started empty: ``--episodes`` real conversation turns (the LoCoMo dev
conversations' turns, repeated with a number to fill the count) are recorded into one
namespace and embedded (WordLlama), then half of them (the older half) are archived to the
local archive store by a retention policy with action ARCHIVE. Measured in the same run:
search p50/p95 before and after, the text that left the graph against the bytes written to
the archive, and ``--rehydrate`` episodes brought back, with their content hashes compared.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("GRAPHMEM_HOME", str(ROOT / ".graphmem" / "bench"))
os.environ.setdefault("GRAPHMEM_LOCAL_BOLT_PORT", "27687")
os.environ.setdefault("GRAPHMEM_LOCAL_HTTP_PORT", "27474")

from common import fresh_local_neo4j, percentile  # noqa: E402  (bench/ is the script's directory)
from locomo import load  # noqa: E402

from graphmem.archive import stores, tiering  # noqa: E402
from graphmem.core.config import get_settings  # noqa: E402
from graphmem.core.namespaces import Namespace  # noqa: E402
from graphmem.db import migrations  # noqa: E402
from graphmem.db.database import Database, connect  # noqa: E402
from graphmem.episodes.store import EpisodeKind, NewEpisode, by_ids, record  # noqa: E402
from graphmem.governance import retention  # noqa: E402
from graphmem.local_neo4j import LocalNeo4j  # noqa: E402
from graphmem.retrieval import embeddings  # noqa: E402
from graphmem.retrieval.embeddings import WordLlamaEmbedder, embed_all_pending  # noqa: E402
from graphmem.retrieval.search import Kind, SearchQuery, search  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "locomo-dev"
NS = Namespace("bench/archive")


async def fill(db: Database, n: int) -> list[str]:
    turns = [t for c in load(DATA) for t in c.turns]
    start = datetime.now(UTC) - timedelta(days=400)
    made = [NewEpisode(content=f"{turns[i % len(turns)].content} (#{i})",
                       kind=EpisodeKind.USER_MESSAGE, actor=turns[i % len(turns)].speaker,
                       occurred_at=start + timedelta(minutes=i), external_id=f"a-{i}",
                       session_id=f"s{i // 200}") for i in range(n)]
    ids: list[str] = []
    for begin in range(0, n, 1000):
        done = await record(db, NS, made[begin:begin + 1000])
        ids += [e.id for e in done.episodes]
    return ids


async def latencies(db: Database, embedder: WordLlamaEmbedder, queries: list[str]) -> list[float]:
    samples = []
    for text in queries:
        began = time.perf_counter()
        await search(db, NS, SearchQuery(text=text, limit=10, kinds=(Kind.EPISODE,)), embedder)
        samples.append((time.perf_counter() - began) * 1000)
    return samples


async def bench(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as folder:
        settings = get_settings().model_copy(update={"embedder": "wordllama",
                                                     "archive_url": Path(folder).as_uri()})
        fresh_local_neo4j(LocalNeo4j.from_settings(settings))
        db = stores.attach(await connect(settings), settings)
        store = stores.required(db)
        await migrations.apply(db)
        embedder = WordLlamaEmbedder()
        await embeddings.ensure_space(db, embedder)
        began = time.perf_counter()
        ids = await fill(db, args.episodes)
        await embed_all_pending(db, embedder, 256)
        print(f"recorded and embedded {len(ids)} turns in {time.perf_counter() - began:.0f} s",
              file=sys.stderr)
        questions = [q.text for c in load(DATA) for q in c.questions][:args.queries]
        await latencies(db, embedder, questions[:10])  # warm up
        before = await latencies(db, embedder, questions)
        hashes = {e.id: e.content_hash for e in (await by_ids(db, NS, ids)).values()}

        half = timedelta(days=400) - timedelta(minutes=args.episodes // 2)
        await retention.set_policy(db, NS, retention.Policy(
            None, None, half, retention.Action.ARCHIVE), "bench")
        began = time.perf_counter()
        [applied] = await retention.sweep(db, NS, retract_orphans=True)
        archive_s = time.perf_counter() - began
        after = await latencies(db, embedder, questions)

        wanted = (await _archived_ids(db))[:args.rehydrate]
        began = time.perf_counter()
        back = await tiering.rehydrate(db, store, NS, wanted)
        rehydrate_s = time.perf_counter() - began
        same = sum(hashes[e.id] == e.content_hash and e.archived_at is None for e in back)
        on_disk = sum(p.stat().st_size for p in Path(folder).rglob("*") if p.is_file())
        await db.close()

    archived = applied.episodes_archived
    print(f"\n{args.episodes} turns (LoCoMo dev, repeated), {os.cpu_count()} CPUs\n")
    print(f"archived {archived} in {archive_s:.1f} s ({archived / archive_s:.0f} episodes/s)")
    print(f"  text out of the graph: {applied.bytes_moved / 1e6:.2f} MB of content, metadata and "
          f"search copies ({applied.bytes_moved / archived:.0f} bytes per episode)")
    print(f"  archive store: {applied.bytes_archived / 1e6:.2f} MB compressed "
          f"({on_disk / 1e6:.2f} MB on disk after rehydrating {len(back)})")
    per_10k = applied.bytes_moved / archived * 10_000
    print(f"  per 10k archived: {per_10k / 1e6:.2f} MB leave the graph, "
          f"{applied.bytes_archived / archived * 10_000 / 1e6:.2f} MB go to the archive")
    print(f"rehydrated {len(back)} in {rehydrate_s * 1000:.0f} ms; content hashes identical: "
          f"{same}/{len(back)}")
    print(f"\nsearch over episodes, {len(questions)} LoCoMo questions")
    print(f"{'':<22}{'p50 ms':>8}{'p95 ms':>8}")
    for label, samples in (("nothing archived", before), ("half archived", after)):
        print(f"{label:<22}{statistics.median(samples):>8.1f}"
              f"{percentile(samples, 0.95):>8.1f}")


async def _archived_ids(db: Database) -> list[str]:
    records, _, _ = await db.driver.execute_query(
        "MATCH (e:Episode {ns: $ns}) WHERE e.archived_at IS NOT NULL RETURN e.id AS id "
        "ORDER BY e.occurred_at", {"ns": NS}, database_=db.name)
    return [record["id"] for record in records]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--episodes", type=int, default=10_000)
    parser.add_argument("--rehydrate", type=int, default=100)
    parser.add_argument("--queries", type=int, default=100)
    asyncio.run(bench(parser.parse_args()))


if __name__ == "__main__":
    main()
