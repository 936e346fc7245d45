"""The LangChain retriever and the LangGraph store over the real service: sync against
`graphmem serve` (this folder's `server_url`), async through the ASGI app (`amemory`)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from graphmem_client import AsyncMemory, Memory, Turn
from graphmem_client.langchain import GraphmemRetriever

T0 = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)
CONVERSATION = [
    Turn(role="user", actor="Dana", content="I just started at Acme Robotics", occurred_at=T0),
    Turn(role="assistant", content="Congratulations on the new job!",
         occurred_at=T0 + timedelta(minutes=1)),
    Turn(role="user", actor="Dana", content="I live in Porto",
         occurred_at=T0 + timedelta(minutes=2)),
]


@pytest.fixture
def memory(server_url: str, admin_token: str, ns: str) -> Iterator[Memory]:
    with Memory(server_url, admin_token, ns) as client:
        yield client


def _seed(memory: Memory) -> tuple[list[str], str]:
    episodes = memory.record(CONVERSATION, session_id="chat-1").episode_ids
    fact = memory.remember("Dana", "works_at", "Acme Robotics", evidence=[episodes[0]])
    return episodes, fact.id


async def _aseed(memory: AsyncMemory) -> tuple[list[str], str]:
    episodes = (await memory.record(CONVERSATION, session_id="chat-1")).episode_ids
    fact = await memory.remember("Dana", "works_at", "Acme Robotics", evidence=[episodes[0]])
    return episodes, fact.id


def _check_search(docs: list[Any], episodes: list[str], fact_id: str) -> None:
    by_id = {doc.metadata["id"]: doc for doc in docs}
    episode = by_id[episodes[0]]
    assert episode.page_content == "I just started at Acme Robotics"
    assert episode.metadata | {"score": 0} == episode.metadata | {
        "source": "graphmem", "kind": "EPISODE", "session_id": "chat-1", "actor": "Dana",
        "episode_kind": "USER_MESSAGE", "occurred_at": T0.isoformat(), "score": 0}
    assert episode.metadata["score"] > 0 and episode.id == episodes[0]
    fact = by_id[fact_id]
    assert fact.metadata["kind"] == "FACT" and fact.metadata["fact_id"] == fact_id
    assert (fact.metadata["subject"], fact.metadata["predicate"], fact.metadata["object"],
            fact.metadata["status"]) == ("Dana", "works_at", "Acme Robotics", "ACTIVE")
    assert "Acme Robotics" in fact.page_content


def _check_recall(docs: list[Any], fact_id: str) -> None:
    assert docs and all(doc.metadata["source"] == "graphmem" for doc in docs)
    facts = [doc for doc in docs if doc.metadata["layer"] == "facts"]
    assert [doc.metadata["fact_id"] for doc in facts] == [fact_id]
    assert "Acme Robotics" in facts[0].page_content and facts[0].metadata["tokens"] > 0
    assert all(doc.metadata["episode_id"] for doc in docs if doc.metadata["layer"] == "episodes")


def test_retriever_sync(memory: Memory) -> None:
    episodes, fact_id = _seed(memory)
    retriever = GraphmemRetriever(memory=memory, k=10)
    _check_search(retriever.invoke("Acme Robotics"), episodes, fact_id)
    only_facts = GraphmemRetriever(memory=memory, kinds=["fact"]).invoke("Acme Robotics")
    assert {doc.metadata["kind"] for doc in only_facts} == {"FACT"}
    recall = GraphmemRetriever(memory=memory, mode="recall", budget=500, session_id="chat-1")
    _check_recall(recall.invoke("Where does Dana work?"), fact_id)
    with pytest.raises(ValueError, match="memory="):
        GraphmemRetriever().invoke("anything")


async def test_retriever_async(amemory: AsyncMemory, memory: Memory) -> None:
    episodes, fact_id = await _aseed(amemory)
    retriever = GraphmemRetriever(async_memory=amemory, k=10)
    _check_search(await retriever.ainvoke("Acme Robotics"), episodes, fact_id)
    recall = GraphmemRetriever(async_memory=amemory, mode="recall", session_id="chat-1")
    _check_recall(await recall.ainvoke("Where does Dana work?"), fact_id)
    # Only a sync Memory: LangChain runs it in a thread.
    _check_search(await GraphmemRetriever(memory=memory).ainvoke("Acme Robotics"),
                  episodes, fact_id)
