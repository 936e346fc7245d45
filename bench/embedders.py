"""Which local embedder finds the evidence: vector search alone over real conversations.

    bin/bench embedders --locomo ../shared/data/locomo-dev [--models local bge-small wordllama]

Each turn is embedded as the worker embeds it (``embedded_text``: the turn before it, the
speaker, the turn) and each question as a search embeds it (``embed_queries``), with the
embedders graphmem ships; every question is then answered by cosine over its own
conversation's turns, exactly (no index, no other signal). Printed: turn-level evidence
recall at 10, 30 and 100 per conversation, and at 10 and 100 for questions with several
evidence turns, with each model's embedding speed on this machine. No Neo4j: it measures the
model, not the fusion (``bin/bench retrieval --locomo`` measures what search makes of it).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
from pathlib import Path
from statistics import mean

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("GRAPHMEM_HOME", str(ROOT / ".graphmem" / "bench"))

import locomo  # noqa: E402

from graphmem.core.config import Settings, get_settings  # noqa: E402
from graphmem.retrieval import embeddings  # noqa: E402
from graphmem.retrieval.embeddings import Embedder, embedded_text  # noqa: E402
from graphmem.retrieval.relevance import cosine  # noqa: E402

DEPTHS = (10, 30, 100)


async def ranked_turns(embedder: Embedder,
                       conversation: locomo.Conversation) -> tuple[list[list[str]], float]:
    """Each question's turns, nearest first; and the seconds spent embedding."""
    texts: list[str] = []
    before: locomo.Turn | None = None
    for turn in conversation.turns:
        context = before.content if before and before.session == turn.session else None
        texts.append(embedded_text(turn.content, context, turn.speaker))
        before = turn
    started = time.perf_counter()
    turns = await embedder.embed(texts)
    asked = await embedder.embed_queries([q.text for q in conversation.questions])
    seconds = time.perf_counter() - started
    ids = [t.id for t in conversation.turns]
    return [[ids[i] for i in sorted(range(len(ids)), key=lambda i: -cosine(q, turns[i]))]
            for q in asked], seconds


async def measure(name: str, settings: Settings, conversations: list[locomo.Conversation]) -> None:
    embedder = embeddings.make_embedder(Settings.model_construct(
        **{**settings.model_dump(), "embedder": name}))
    assert embedder is not None, name
    seconds = 0.0
    per_conversation: list[str] = []
    all_found: dict[int, list[float]] = {k: [] for k in DEPTHS}
    several: dict[int, list[float]] = {10: [], 100: []}
    for conversation in conversations:
        rankings, spent = await ranked_turns(embedder, conversation)
        seconds += spent
        at_ten = []
        for question, ranked in zip(conversation.questions, rankings, strict=True):
            for k in DEPTHS:
                all_found[k].append(locomo.evidence_recall(ranked, question.evidence, k))
            at_ten.append(all_found[10][-1])
            if len(question.evidence) > 1:
                for k in several:
                    several[k].append(locomo.evidence_recall(ranked, question.evidence, k))
        per_conversation.append(f"{conversation.name} {mean(at_ten):.3f}")
    turns = sum(len(c.turns) + len(c.questions) for c in conversations)
    print(f"{embedder.name:24} " + "  ".join(f"R@{k} {mean(v):.3f}" for k, v in all_found.items())
          + "  | several " + "  ".join(f"R@{k} {mean(v):.3f}" for k, v in several.items())
          + f"  | R@10 {', '.join(per_conversation)}  | {turns / seconds:.0f} texts/s, one thread")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--locomo", type=Path, required=True)
    parser.add_argument("--models", nargs="+", default=["local", "bge-small", "wordllama"])
    args = parser.parse_args()
    conversations = locomo.load(args.locomo)
    print(f"{sum(len(c.questions) for c in conversations)} questions over "
          f"{sum(len(c.turns) for c in conversations)} turns; vector search alone, exact cosine")
    for name in args.models:
        asyncio.run(measure(name, get_settings(), conversations))


if __name__ == "__main__":
    main()
