""""Forget my dog": the user asks memory to forget someone or something. The dry run says
what would go; afterwards nothing names it — not recall, not search, not the turns (their
other words stay) — and another user's dog of the same name is untouched."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from graphmem_client import AsyncMemory

LINES = ["I adopted a dog, Biscuit, last week.", "Biscuit loves the beach.",
         "Work was busy today."]


async def a_conversation_about_biscuit(memory: AsyncMemory) -> list[str]:
    now = datetime.now(UTC)
    said = await memory.record([{"role": "user", "actor": "Sam", "content": line,
                                 "occurred_at": now + timedelta(seconds=i)}
                                for i, line in enumerate(LINES)], session_id="chat-1")
    await memory.remember("Sam", "has_pet", "Biscuit", evidence=said.episode_ids[:1])
    await memory.remember("Biscuit", "loves", "the beach", evidence=said.episode_ids[1:2])
    return said.episode_ids


async def test_forgetting_a_pet_redacts_every_mention_after_a_dry_run(
        memory: AsyncMemory, other_memory: AsyncMemory) -> None:
    turns = await a_conversation_about_biscuit(memory)
    await a_conversation_about_biscuit(other_memory)

    plan = await memory.forget(entity="Biscuit", mentions="redact", dry_run=True)
    assert sorted(t.id for t in plan.turns) == sorted(turns[:2])
    assert "Biscuit" in (await memory.recall("What is my dog called? Biscuit")).text

    receipt = await memory.forget(entity="Biscuit", mentions="redact")
    assert receipt.verified
    for question in ("What is my dog called?", "Tell me about Biscuit", "Biscuit beach"):
        assert "Biscuit" not in (await memory.recall(question, session_id="chat-1")).text
    assert [h for h in await memory.search("Biscuit beach dog") if "Biscuit" in h.text] == []
    # The turns stay, without the name; the unrelated turn is as it was.
    texts = [h.text for h in await memory.search("adopted dog beach busy work", limit=10)]
    assert "Work was busy today." in texts
    assert any("adopted a dog" in t and "Biscuit" not in t for t in texts)
    # Another user's Biscuit is theirs.
    assert "Biscuit" in (await other_memory.recall("Tell me about Biscuit")).text


async def test_forgetting_without_mentions_keeps_the_turns_as_said(memory: AsyncMemory) -> None:
    await a_conversation_about_biscuit(memory)
    receipt = await memory.forget(entity="Biscuit")
    assert receipt.verified  # the facts are gone; the turns stay by choice
    assert await memory.about("Biscuit") == []
    hits = [h.text for h in await memory.search("Biscuit beach", kinds=["episode"])]
    assert "Biscuit loves the beach." in hits  # the user's words, kept as asked
