"""The client's `recall(budget=…)`: the budget bounds the recalled pieces (`tokens_used`, the
server's count with its tokenizer); `.text` sets them under a heading per layer, one `- `
line each, which is all it adds (clients/python/README.md)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from graphmem_client import AsyncMemory, Turn
from graphmem_client._operations import _HEADINGS

from graphmem.retrieval import tokens

T0 = datetime(2026, 10, 5, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize("budget", [60, 400])
async def test_the_budget_bounds_the_pieces_and_text_adds_only_headings(
        amemory: AsyncMemory, budget: int) -> None:
    said = ["I adopted a dog called Biscuit, a scruffy terrier",
            "Biscuit hates the vacuum cleaner and barks at the postman",
            "We walked Biscuit along the river Douro at dawn"]
    recorded = await amemory.record([Turn(role="user", content=text,
                                          occurred_at=T0 + timedelta(days=i))
                                     for i, text in enumerate(said)], session_id="chat")
    await amemory.remember("user", "owns", "Biscuit", evidence=recorded.episode_ids[:1])
    await amemory.remember("Biscuit", "dislikes", "the vacuum cleaner")
    recall = await amemory.recall("What did I say about Biscuit, exactly?", budget=budget,
                                  session_id="chat")
    assert recall.token_budget == budget
    assert [p.tokens for p in recall.pieces] == [tokens.count(p.text) for p in recall.pieces]
    assert recall.tokens_used == sum(p.tokens for p in recall.pieces) <= budget
    assert recall.pieces and {p.layer for p in recall.pieces} <= set(_HEADINGS)
    layers = {p.layer for p in recall.pieces}
    assert all(p.text.strip() in recall.text for p in recall.pieces)
    # What .text adds: each layer's heading and the blank line before it, "- " on each line.
    added = sum(tokens.count(_HEADINGS[layer]) + 2 for layer in layers) + 2 * len(recall.pieces)
    assert tokens.count(recall.text) <= recall.tokens_used + added
