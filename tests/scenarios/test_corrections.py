"""Corrections and retractions: what memory shows afterwards is what it now believes; the old
value and graphmem's own notes of the change are history, found by `why`, never recalled."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from graphmem_client import AsyncMemory
from graphmem_client._operations import Call, Steps


async def say(memory: AsyncMemory, *lines: str, session: str = "chat-1") -> list[str]:
    """Sam's turns, recorded; their episode ids (evidence)."""
    now = datetime.now(UTC)
    done = await memory.record([{"role": "user", "actor": "Sam", "content": line,
                                 "occurred_at": now + timedelta(seconds=i)}
                                for i, line in enumerate(lines)], session_id=session)
    return done.episode_ids


async def test_after_a_correction_recall_shows_the_new_job_and_no_note(
        memory: AsyncMemory) -> None:
    said = await say(memory, "I work at Zalando as a data engineer.")
    old = (await memory.remember("Sam", "works_at", "Zalando", evidence=said)).fact
    await memory.correct(old.id, "Acme Robotics", reason="Sam said it was Acme, not Zalando")

    for question in ("Where does Sam work?", "What did Sam say about Zalando exactly?",
                     "Corrected Zalando"):
        recalled = await memory.recall(question, session_id="chat-1")
        assert "Corrected" not in recalled.text, question
        assert "Reason:" not in recalled.text, question
    assert "Sam works at Acme Robotics" in (await memory.recall("Where does Sam work?")).text
    # The note is history: `why` cites it, search finds it only when history is asked for.
    hits = await memory.search("Corrected Zalando Acme", kinds=["episode"])
    assert all("Corrected" not in hit.text for hit in hits)
    assert [hit.text for hit in hits] == ["I work at Zalando as a data engineer."]


async def test_a_retracted_fact_never_comes_back_through_recall_or_search(
        memory: AsyncMemory) -> None:
    fact = (await memory.remember("Dana", "likes", "anchovies")).fact
    await memory.retract(fact.id, reason="Dana never said that")

    recalled = await memory.recall("What food does Dana like? anchovies")
    assert "anchovies" not in recalled.text
    assert not await memory.search("anchovies")
    assert not await memory.search("Retracted Dana likes anchovies")


async def test_a_langgraph_delete_is_gone_from_recall(memory: AsyncMemory) -> None:
    """The LangGraph store's delete retracts the item's fact; its JSON value, which the
    retraction's note quotes, must not answer a later question."""
    from graphmem_client.langgraph import GraphmemStore

    store = GraphmemStore(async_memory=memory)
    await store.aput(("memories", "dana"), "food", {"likes": "sushi"})
    await store.aput(("memories", "dana"), "pet", {"has": "a parrot called Kiwi"})
    await store.adelete(("memories", "dana"), "food")

    recalled = await memory.recall("What food does Dana like? sushi")
    assert "sushi" not in recalled.text
    assert "Retracted" not in recalled.text
    assert await store.aget(("memories", "dana"), "food") is None
    assert not [hit for hit in await memory.search("sushi") if "sushi" in hit.text]


async def test_a_summary_that_quotes_a_corrected_value_is_left_out_of_recall(
        memory: AsyncMemory) -> None:
    said = await say(memory, "I live in Berlin.", "My sister Mia lives in Porto.")
    fact = (await memory.remember("Sam", "lives_in", "Berlin", evidence=said[:1])).fact
    await _write_summary(memory, "Sam lives in Berlin; his sister Mia lives in Porto.",
                         covers=said, cites=[fact.id])
    assert "Berlin" in (await memory.recall("Where is Mia?", session_id="chat-1")).text

    await memory.correct(fact.id, "Hamburg", reason="Sam moved years ago")
    recalled = await memory.recall("Where does Sam live?", session_id="chat-1")
    assert "Hamburg" in recalled.text
    assert "Berlin" not in recalled.text


async def _write_summary(memory: AsyncMemory, text: str, covers: list[str],
                         cites: list[str]) -> None:
    def steps() -> Steps[None]:
        yield Call("""mutation W($namespace: String!, $text: String!, $covers: [String!]!,
                   $cites: [String!]!) { writeSummary(namespace: $namespace, summary: {
                   sessionId: "chat-1", text: $text, covers: $covers, cites: $cites}) { id } }""",
                   "W", {"namespace": memory.namespace, "text": text, "covers": covers,
                         "cites": cites})

    await memory.run(steps())
