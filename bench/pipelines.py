"""Pipeline throughput: extraction jobs per second, offline and through an LLM endpoint.

    bin/bench pipelines [--episodes 2000] [--workers 4] [--llm-latency 0.0]

Episodes are recorded with extraction switched on (so the recording transactions queue the
jobs), then `--workers` workers drain the queue; the table gives jobs, episodes and facts per
second. The LLM run points the real `openai` client at a local OpenAI-compatible endpoint
(the tests' recorded-reply server) answering every call after `--llm-latency` seconds, so
it measures graphmem's side of the pipeline (claim, prompt, parse, conflict resolution,
exactly-once write), not a model.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("GRAPHMEM_HOME", str(ROOT / ".graphmem" / "bench"))
os.environ.setdefault("GRAPHMEM_LOCAL_BOLT_PORT", "27687")
os.environ.setdefault("GRAPHMEM_LOCAL_HTTP_PORT", "27474")

from common import delete_namespaces  # noqa: E402  (bench/ is the script's directory)

from graphmem.core.config import Settings, get_settings  # noqa: E402
from graphmem.core.namespaces import Namespace  # noqa: E402
from graphmem.db import migrations  # noqa: E402
from graphmem.db.database import Database, connect  # noqa: E402
from graphmem.episodes import store as episodes  # noqa: E402
from graphmem.episodes.store import EpisodeKind, NewEpisode  # noqa: E402
from graphmem.jobs import queue as jobs  # noqa: E402
from graphmem.jobs import switches  # noqa: E402
from graphmem.local_neo4j import LocalNeo4j  # noqa: E402
from graphmem.observability import logs  # noqa: E402
from graphmem.pipelines.worker import Worker  # noqa: E402
from tests.support.chat_endpoint import Reply, chat_endpoint  # noqa: E402

CITIES = ["Lisbon", "Porto", "Berlin", "Madrid", "Oslo", "Turin", "Lyon", "Ghent"]
FIRMS = ["Acme Robotics", "Globex", "Initech", "Umbrella", "Hooli", "Stark Industries"]
CHATTER = ["Thanks!", "ok", "Can you help me plan the week?", "What's the weather like?",
           "Sounds good, let's do that.", "Tell me a joke."]


def conversation(n: int, rng: random.Random) -> list[str]:
    """A third of the turns state something about the user; the rest is chatter."""
    said = []
    for _ in range(n):
        roll = rng.random()
        if roll < 0.15:
            said.append(f"I moved to {rng.choice(CITIES)} last month.")
        elif roll < 0.3:
            said.append(f"I just started a new job at {rng.choice(FIRMS)}.")
        elif roll < 0.35:
            said.append(f"Actually, I live in {rng.choice(CITIES)}, not there.")
        else:
            said.append(rng.choice(CHATTER))
    return said


def answer(request: dict[str, Any]) -> Reply:
    """Two facts about the first message of each call, as a model would return them."""
    return Reply(content=json.dumps({"facts": [
        {"episode": 1, "subject": "user", "predicate": "lives_in", "object": "Lisbon",
         "object_is_entity": True, "confidence": 0.9, "quote": "Lisbon"},
        {"episode": 1, "subject": "user", "predicate": "likes", "object": "tea",
         "object_is_entity": True, "confidence": 0.8, "quote": "tea"}]}))


async def run(db: Database, settings: Settings, args: argparse.Namespace,
              label: str) -> dict[str, float]:
    rng = random.Random(7)
    users = [Namespace(f"bench/pipe-{uuid.uuid4().hex[:8]}") for _ in range(args.users)]
    triggers = jobs.Triggers.from_settings(settings)
    start = datetime(2026, 5, 1, tzinfo=UTC)
    for ns in users:
        await switches.set_switches(db, ns, settings, True, False, "bench")
        texts = conversation(args.episodes // len(users), rng)
        for i in range(0, len(texts), 100):
            await episodes.record(db, ns, [
                NewEpisode(content=text, kind=EpisodeKind.USER_MESSAGE, actor="user",
                           session_id="s1", occurred_at=start + timedelta(minutes=i + j))
                for j, text in enumerate(texts[i:i + 100])], triggers)
    began = time.perf_counter()
    workers = [Worker(db, settings, name=f"bench-{i}") for i in range(args.workers)]
    ran = sum(await asyncio.gather(*(w.drain() for w in workers)))
    seconds = time.perf_counter() - began
    made = 0
    for ns in users:
        page = await jobs.page(db, ns, None, 200, None)
        made += sum(j.stats.get("facts", 0) for _, j in page.items)
    await delete_namespaces(db, list(users))
    print(f"{label:<28} {ran:>6} {ran / seconds:>10.1f} {args.episodes / seconds:>12.1f} "
          f"{made / seconds:>9.1f}")
    return {"jobs": ran, "seconds": seconds}


async def bench(args: argparse.Namespace) -> None:
    base = get_settings()
    LocalNeo4j.from_settings(base).start()
    db = await connect(base)
    await migrations.apply(db)
    print(f"{args.episodes} episodes, {args.users} users, jobs of {base.job_episodes} "
          f"episodes, {args.workers} workers")
    print(f"{'extractor':<28} {'jobs':>6} {'jobs/s':>10} {'episodes/s':>12} {'facts/s':>9}")
    try:
        await run(db, base, args, "offline patterns")
        with chat_endpoint(Reply()) as llm:
            llm.answer = lambda request: _slow(answer(request), args.llm_latency)
            settings = Settings(**{**base.model_dump(), "llm_model": "bench-model",
                                   "llm_base_url": llm.url})
            await run(db, settings, args, f"LLM endpoint ({args.llm_latency:.2f} s/call)")
    finally:
        await db.close()


def _slow(reply: Reply, latency: float) -> Reply:
    return Reply(content=reply.content, delay_s=latency)


def main() -> None:
    logs.quiet_libraries()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--episodes", type=int, default=2000)
    parser.add_argument("--users", type=int, default=10)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--llm-latency", type=float, default=0.0)
    asyncio.run(bench(parser.parse_args()))


if __name__ == "__main__":
    main()
