"""The LangChain retriever and the LangGraph store over the real service: sync against
`graphmem serve` (this folder's `server_url`), async through the ASGI app (`amemory`)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from graphmem_client import AsyncMemory, Memory, Turn
from graphmem_client.langchain import GraphmemRetriever
from graphmem_client.langgraph import PREDICATE, GraphmemStore, subject_of
from langgraph.store.base import GetOp, PutOp

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


def _history(memory: Memory, namespace: tuple[str, ...], key: str) -> list[str]:
    """The objects graphmem holds for an item, current first, then what it superseded."""
    (current,) = [f for f in memory.about(subject_of(namespace, key)) if f.predicate == PREDICATE]
    return [current.object, *(f.object for f in memory.why(current.id).supersedes)]


def _value(envelope: str) -> Any:
    return json.loads(envelope)["value"]


def test_store_sync(memory: Memory) -> None:
    store = GraphmemStore(memory)
    assert store.get(("users", "dana"), "prefs") is None
    store.put(("users", "dana"), "prefs", {"food": "pizza", "spice": 2})
    first = store.get(("users", "dana"), "prefs")
    assert first is not None and first.value == {"food": "pizza", "spice": 2}
    assert first.namespace == ("users", "dana") and first.key == "prefs"
    assert first.created_at.tzinfo is not None and first.updated_at == first.created_at

    store.put(("users", "dana"), "prefs", {"food": "sushi", "spice": 4})
    second = store.get(("users", "dana"), "prefs")
    assert second is not None and second.value == {"food": "sushi", "spice": 4}
    assert second.updated_at >= first.updated_at
    store.put(("users", "dana"), "prefs", {"spice": 4, "food": "sushi"})  # the same value
    assert store.get(("users", "dana"), "prefs") == second  # restated: nothing new
    assert [_value(o) for o in _history(memory, ("users", "dana"), "prefs")] == [
        {"food": "sushi", "spice": 4}, {"food": "pizza", "spice": 2}]

    store.put(("users", "dana"), "Prefs", {"food": "tapas"})  # case matters to LangGraph
    store.put(("users", "eli"), "prefs", {"food": "ramen", "spice": 1})
    store.put(("docs",), "readme", {"text": "graphmem keeps history"})
    assert store.get(("users", "dana"), "prefs").value["food"] == "sushi"  # type: ignore[union-attr]

    assert {(i.namespace, i.key) for i in store.search(("users",))} == {
        (("users", "dana"), "prefs"), (("users", "dana"), "Prefs"), (("users", "eli"), "prefs")}
    assert [i.key for i in store.search(("users", "eli"))] == ["prefs"]
    spicy = store.search(("users",), filter={"spice": {"$gte": 2}})
    assert [i.value["food"] for i in spicy] == ["sushi"]
    assert [i.value["food"] for i in store.search((), filter={"food": "ramen"})] == ["ramen"]
    assert len(store.search(("users",), limit=2)) == 2
    assert len(store.search(("users",), limit=2, offset=2)) == 1
    found = store.search(("users",), query="ramen")
    assert found and found[0].value["food"] == "ramen" and found[0].score is not None
    assert store.search(("docs",), query="ramen") == []

    assert store.list_namespaces() == [("docs",), ("users", "dana"), ("users", "eli")]
    assert store.list_namespaces(prefix=("users",)) == [("users", "dana"), ("users", "eli")]
    assert store.list_namespaces(suffix=("eli",)) == [("users", "eli")]
    assert store.list_namespaces(prefix=("users", "*")) == [("users", "dana"), ("users", "eli")]
    assert store.list_namespaces(max_depth=1) == [("docs",), ("users",)]

    store.delete(("users", "dana"), "prefs")
    assert store.get(("users", "dana"), "prefs") is None
    store.delete(("users", "dana"), "prefs")  # deleting nothing is fine
    assert store.get(("users", "dana"), "Prefs") is not None
    facts = memory.about(subject_of(("users", "dana"), "prefs"))
    assert facts == []  # retracted: not current, but kept as history
    with pytest.raises(NotImplementedError):
        store.put(("users", "dana"), "prefs", {"a": 1}, ttl=5)


async def test_store_async(amemory: AsyncMemory) -> None:
    store = GraphmemStore(async_memory=amemory)
    await store.aput(("users", "dana"), "prefs", {"food": "pizza"})
    await store.aput(("users", "dana"), "prefs", {"food": "sushi"})
    item = await store.aget(("users", "dana"), "prefs")
    assert item is not None and item.value == {"food": "sushi"}
    (fact,) = await amemory.about(subject_of(("users", "dana"), "prefs"))
    (superseded,) = (await amemory.why(fact.id)).supersedes
    assert _value(superseded.object) == {"food": "pizza"}
    assert [i.key for i in await store.asearch(("users",))] == ["prefs"]
    assert await store.alist_namespaces() == [("users", "dana")]
    results = await store.abatch([
        PutOp(("users", "eli"), "prefs", {"food": "ramen"}),
        GetOp(("users", "eli"), "prefs"),
        PutOp(("users", "eli"), "prefs", None),
        GetOp(("users", "eli"), "prefs")])
    assert results[0] is None and results[1].value == {"food": "ramen"}  # type: ignore[union-attr]
    assert results[2:] == [None, None]
    await store.adelete(("users", "dana"), "prefs")
    assert await store.aget(("users", "dana"), "prefs") is None
    with pytest.raises(ValueError, match="memory="):
        GraphmemStore(async_memory=amemory).get(("users",), "x")
