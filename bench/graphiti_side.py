"""Graphiti's half of `bin/bench graphiti`, run in its own virtualenv (graphiti-core pins its
own dependencies): the same facts written through its bulk path and the same queries through
its `search`, with the same local embedder (WordLlama), on a Neo4j of the same version and
settings. Prints one JSON object with the timings.

Graphiti's `add_triplet` and `add_episode` call an LLM on every write (deduplication,
timestamps); the bulk path `add_nodes_and_edges_bulk` is the one that does not, so it is the
fair comparison for an LLM-free write path.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

os.environ.setdefault("GRAPHITI_TELEMETRY_ENABLED", "false")

import wordllama
from graphiti_core import Graphiti
from graphiti_core.cross_encoder.openai_reranker_client import OpenAIRerankerClient
from graphiti_core.edges import EntityEdge
from graphiti_core.embedder.client import EmbedderClient
from graphiti_core.llm_client.config import LLMConfig
from graphiti_core.llm_client.openai_client import OpenAIClient
from graphiti_core.nodes import EntityNode
from graphiti_core.utils.bulk_utils import add_nodes_and_edges_bulk
from wordllama import WordLlama

GROUP = "bench"


class LocalEmbedder(EmbedderClient):
    """The WordLlama model graphmem embeds with, behind Graphiti's embedder interface."""

    def __init__(self) -> None:
        # As graphmem loads it: the files shipped in the wheel, no download.
        self.model = WordLlama.load(dim=256, cache_dir=Path(wordllama.__file__).parent,
                                    disable_download=True)

    async def create(self, input_data: Any) -> list[float]:
        text = input_data if isinstance(input_data, str) else str(input_data)
        return [float(x) for x in self.model.embed([text], norm=True)[0]]

    async def create_batch(self, input_data_list: list[str]) -> list[list[float]]:
        return [[float(x) for x in row] for row in self.model.embed(input_data_list, norm=True)]


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def main(args: argparse.Namespace) -> None:
    work = json.load(sys.stdin)
    unused = LLMConfig(api_key="unused", base_url="http://127.0.0.1:9/v1")  # never called
    graphiti = Graphiti(args.uri, "neo4j", os.environ["GRAPHITI_NEO4J_PASSWORD"],
                        llm_client=OpenAIClient(unused),
                        embedder=LocalEmbedder(), cross_encoder=OpenAIRerankerClient(unused))
    await graphiti.build_indices_and_constraints()
    names = sorted({f["subject"] for f in work["facts"]} | {f["object"] for f in work["facts"]})
    now = datetime.now(UTC)
    nodes = {n: EntityNode(name=n, group_id=GROUP, labels=["Entity"], created_at=now)
             for n in names}
    began = 0.0
    for i in range(0, len(work["facts"]), args.batch):
        if i == args.batch:
            began = time.perf_counter()  # the first batch warmed up, untimed
        batch = work["facts"][i:i + args.batch]
        edges = [EntityEdge(source_node_uuid=nodes[f["subject"]].uuid,
                            target_node_uuid=nodes[f["object"]].uuid,
                            name=f["predicate"].upper(), fact=f["text"], group_id=GROUP,
                            created_at=now, valid_at=now, episodes=[]) for f in batch]
        touched = {f["subject"] for f in batch} | {f["object"] for f in batch}
        await add_nodes_and_edges_bulk(graphiti.driver, [], [],
                                       [nodes[n] for n in sorted(touched)], edges,
                                       graphiti.embedder)
    ingest = (len(work["facts"]) - args.batch) / (time.perf_counter() - began)

    for query in work["queries"][:10]:  # warm up
        await graphiti.search(query, group_ids=[GROUP], num_results=10)
    samples = []
    for query in work["queries"]:
        began = time.perf_counter()
        await graphiti.search(query, group_ids=[GROUP], num_results=10)
        samples.append((time.perf_counter() - began) * 1000)
    await graphiti.close()  # type: ignore[no-untyped-call]
    print(json.dumps({"ingest_per_s": ingest, "search_p50": statistics.median(samples),
                      "search_p95": pct(samples, 0.95)}))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--uri", required=True)
    parser.add_argument("--batch", type=int, default=500)
    asyncio.run(main(parser.parse_args()))
