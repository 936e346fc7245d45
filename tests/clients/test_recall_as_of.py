"""recall(as_of=…) through the client (and its tool) against the real app: what memory
believed, and the turns it had, at an instant (issue 37, item 11)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from graphmem_client import AsyncMemory
from graphmem_client.tools import handle_tool_call_async


async def test_recall_as_of_an_instant(amemory: AsyncMemory) -> None:
    before_anything = datetime.now(UTC)
    await asyncio.sleep(0.01)
    await amemory.record([{"role": "user", "content": "I live in Porto, by the river",
                           "occurred_at": before_anything - timedelta(hours=2)}],
                         session_id="chat")
    porto = await amemory.remember("user", "lives_in", "Porto")
    await asyncio.sleep(0.01)
    then = datetime.now(UTC)
    await asyncio.sleep(0.01)
    await amemory.record([{"role": "user", "content": "I moved to Lisbon last week",
                           "occurred_at": datetime.now(UTC)}], session_id="chat")
    await amemory.correct(porto.id, "Lisbon", reason="moved")

    now = (await amemory.recall("Where do I live?")).text
    assert "user lives in Lisbon" in now and "Porto" not in now
    past = (await amemory.recall("Where do I live?", as_of=then)).text
    assert "user lives in Porto" in past and "Lisbon" not in past
    said = (await amemory.recall("What did I say about where I live?", as_of=then)).text
    assert "I live in Porto, by the river" in said and "Lisbon" not in said
    nothing = (await amemory.recall("Where do I live?", as_of=before_anything)).text
    assert "lives in" not in nothing
    tool = await handle_tool_call_async(amemory, "recall", {"query": "Where do I live?",
                                                            "as_of": then.isoformat()})
    assert "user lives in Porto" in tool and "Lisbon" not in tool
