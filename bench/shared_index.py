"""How much other namespaces' text moves a conversation's ranking through the shared index.

    bin/bench shared-index --locomo ../shared/data/locomo-dev

Lucene's BM25 statistics (how rare a word is, how long a document is) are the whole index's,
so other tenants' text can reorder a namespace's hits. Each conversation of the split is
searched twice through the GraphQL API: in a store holding all of them (each in its own
namespace, as a service holds its tenants), then in a store of its own. Each store is a new
one: Lucene keeps deleted documents in its statistics until its segments merge, so deleting
the other namespaces would not give a store of one's own. Printed: turn-level evidence R@10
of `search` per conversation, together and alone, for episodes and for all kinds.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("GRAPHMEM_HOME", str(ROOT / ".graphmem" / "bench-shared-index"))

import locomo  # noqa: E402  (it sets the bench's ports when they are not set)
from common import fresh_local_neo4j, serving  # noqa: E402

from graphmem.core.config import Settings, get_settings  # noqa: E402
from graphmem.db.database import connect  # noqa: E402
from graphmem.local_neo4j import LocalNeo4j  # noqa: E402

LABELS = ("search(kinds: [EPISODE]) R@10", "search, all kinds R@10")
Scores = dict[str, dict[str, list[float]]]  # conversation -> label -> one score per question


async def measured(conversations: list[locomo.Conversation], settings: Settings) -> Scores:
    """Each of ``conversations`` ingested (turns, offline facts, embeddings) into one new
    store, a namespace each, then its questions asked."""
    fresh_local_neo4j(LocalNeo4j.from_settings(settings))
    db = await connect(settings)
    scores: Scores = {}
    try:
        async with serving(settings, db, "bench-shared-index") as gql:
            run = uuid.uuid4().hex[:6]
            names = {c.name: f"bench/shared-index-{run}/{c.name}" for c in conversations}
            for c in conversations:
                await locomo.ingest(gql, names[c.name], c, False)
                await locomo.extract(gql, db, names[c.name])
            await locomo.embedded(db, settings)
            for c in conversations:
                table, latencies = locomo.Table(), list[float]()
                await locomo.ask(gql, names[c.name], c, table, locomo.Table(), latencies)
                scores[c.name] = {label: [v for per in table.rows[label].values() for v in per]
                                  for label in LABELS}
    finally:
        await db.close()
    return scores


def report(together: Scores, alone: Scores) -> None:
    for label in LABELS:
        print(label)
        both = lone = count = 0.0
        for name in together:
            a, b = together[name][label], alone[name][label]
            print(f"  {name}: together {sum(a) / len(a):.3f}  alone {sum(b) / len(b):.3f}  "
                  f"({len(a)} questions)")
            both, lone, count = both + sum(a), lone + sum(b), count + len(a)
        print(f"  all: together {both / count:.3f}  alone {lone / count:.3f}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--locomo", type=Path, required=True, help="the dev split's folder")
    conversations = locomo.load(parser.parse_args().locomo)
    settings = get_settings()
    try:
        together = await measured(conversations, settings)
        alone: Scores = {}
        for conversation in conversations:
            alone.update(await measured([conversation], settings))
    finally:
        LocalNeo4j.from_settings(settings).stop()
    report(together, alone)


if __name__ == "__main__":  # the embedding process is spawned: it imports this module again
    asyncio.run(main())
