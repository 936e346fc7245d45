"""Every facade call, sync against `graphmem serve` and async through the ASGI app."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from graphmem_client import AsyncMemory, Memory, Turn

from tests.support.http import HTTP

T0 = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)
TURNS: list[Turn | dict[str, Any]] = [
    Turn(role="user", actor="Dana", content="I just started at Acme Robotics", occurred_at=T0),
    {"role": "assistant", "content": "Congratulations on the new job!",
     "occurred_at": T0 + timedelta(minutes=1)},
    Turn(role="user", actor="Dana", content="I live in Porto",
         occurred_at=T0 + timedelta(minutes=2)),
]
MANUAL_POLICY = """mutation($namespace: String!) {
  setPredicatePolicy(namespace: $namespace, predicate: "lives_in", cardinality: ONE,
                     strategy: MANUAL) { strategy } }"""


def _manual_lives_in(url: str, token: str, ns: str) -> None:
    answer = HTTP.post(url, json={"query": MANUAL_POLICY, "variables": {"namespace": ns}},
                        headers={"Authorization": f"Bearer {token}"})
    assert answer.json()["data"]["setPredicatePolicy"]["strategy"] == "MANUAL", answer.text


def test_sync_round_trip(server_url: str, admin_token: str, ns: str) -> None:
    with Memory(server_url, admin_token, ns) as memory:
        recorded = memory.record(TURNS, session_id="chat-1")
        assert (recorded.created, recorded.duplicates, len(recorded.episode_ids)) == (3, 0, 3)
        assert memory.record(TURNS, session_id="chat-1").duplicates == 3

        works = memory.remember("Dana", "works_at", "Acme Robotics",
                                evidence=[recorded.episode_ids[0]], confidence=0.9)
        assert works.outcome == "CREATED" and works.fact.object == "Acme Robotics"
        born = memory.remember("Dana", "birth_year", 1990)
        assert born.fact.object_kind == "number"
        assert {f.predicate for f in memory.about("Dana")} == {"works_at", "birth_year"}
        assert [f.predicate for f in memory.about("Acme Robotics")] == ["works_at"]
        assert memory.about("Nobody") == []

        why = memory.why(works.id)
        assert [e.content for e in why.evidence] == ["I just started at Acme Robotics"]
        assert why.fact.id == works.id and why.superseded_by == []

        recall = memory.recall("Where does Dana work?", budget=500, session_id="chat-1")
        assert "Acme Robotics" in recall.text and recall.pieces
        assert recall.tokens_used <= recall.token_budget == 500
        hits = memory.search("Acme Robotics", kinds=["fact"])
        assert hits and {h.kind for h in hits} == {"FACT"} and hits[0].fact is not None
        assert any(h.kind == "EPISODE" for h in memory.search("Porto"))

        corrected = memory.correct(works.id, "Globex", reason="user said so")
        assert corrected.object == "Globex" and corrected.status == "ACTIVE"
        assert memory.why(works.id).superseded_by[0].id == corrected.id
        assert memory.retract(born.id, reason="wrong").status == "RETRACTED"
        assert {f.object for f in memory.about("Dana")} == {"Globex"}

        _manual_lives_in(server_url, admin_token, ns)
        porto = memory.remember("Dana", "lives_in", "Porto")
        assert memory.remember("Dana", "lives_in", "Lisbon").outcome == "DISPUTED"
        (conflict,) = memory.conflicts()
        assert {c.object for c in conflict.candidates} == {"Porto", "Lisbon"}
        resolved = memory.resolve(conflict.id, porto.id, reason="Porto is right")
        assert resolved.status == "RESOLVED" and resolved.kept == porto.id
        assert memory.conflicts() == []

        assert memory.forget(episodes=[recorded.episode_ids[1]]).verified
        receipt = memory.forget(entity="Dana")
        assert receipt.verified and receipt.counts["facts"] >= 4
        assert memory.about("Dana") == []
        assert memory.forget(namespace=True).verified
        assert memory.search("Porto") == []


async def test_async_round_trip(amemory: AsyncMemory, app: Any, admin_token: str,
                                ns: str) -> None:
    memory = amemory
    recorded = await memory.record(TURNS, session_id="chat-1")
    assert (recorded.created, recorded.duplicates) == (3, 0)
    works = await memory.remember("Dana", "works_at", "Acme Robotics",
                                  evidence=[recorded.episode_ids[0]])
    born = await memory.remember("Dana", "birth_year", 1990, valid_from=T0)
    assert born.fact.valid_from == T0
    assert {f.predicate for f in await memory.about("Dana")} == {"works_at", "birth_year"}
    assert (await memory.why(works.id)).evidence[0].id == recorded.episode_ids[0]
    assert "Acme Robotics" in (await memory.recall("Where does Dana work?")).text
    assert (await memory.search("Acme Robotics", limit=3))[0].text
    corrected = await memory.correct(works.id, "Globex", reason="user said so")
    assert corrected.object == "Globex"
    assert (await memory.retract(born.id, reason="wrong")).status == "RETRACTED"

    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app)) as raw:
        answer = await raw.post("http://graphmem.test/graphql", json={
            "query": MANUAL_POLICY, "variables": {"namespace": ns}},
            headers={"Authorization": f"Bearer {admin_token}"})
        assert answer.json()["data"], answer.text
    porto = await memory.remember("Dana", "lives_in", "Porto")
    await memory.remember("Dana", "lives_in", "Lisbon")
    (conflict,) = await memory.conflicts()
    assert (await memory.resolve(conflict.id, porto.id, reason="right")).kept == porto.id
    assert await memory.conflicts() == []

    assert (await memory.forget(episodes=[recorded.episode_ids[2]])).verified
    assert (await memory.forget(entity="Dana")).verified
    assert (await memory.forget(namespace=True)).verified


def test_a_view_of_another_namespace_shares_the_connections_not_the_memory(
        server_url: str, admin_token: str, ns: str, other: str) -> None:
    """One `Memory` for a service of many users, a view per user: each view's calls are its
    namespace's; closing a view leaves the connections to the `Memory`, closing that ends
    them for its views too."""
    memory = Memory(server_url, admin_token, ns)
    porto = {"role": "user", "content": "I live in Porto", "occurred_at": T0}
    with memory.for_namespace(other) as dana:
        assert (dana.namespace, memory.namespace) == (other, ns)
        dana.record([porto])
        memory.record([porto | {"content": "I live in Lisbon"}])
        assert [h.text for h in dana.search("where do I live?")] == ["I live in Porto"]
    assert [h.text for h in memory.search("where do I live?")] == ["I live in Lisbon"]
    assert "Porto" not in memory.recall("where do I live?").text
    memory.close()
    with pytest.raises(RuntimeError):  # httpx: the client has been closed
        memory.for_namespace(other).search("Porto")
    with pytest.raises(ValueError):
        memory.for_namespace("")


async def test_an_async_view_of_another_namespace_keeps_to_it(
        amemory: AsyncMemory, other: str) -> None:
    async with amemory.for_namespace(other) as dana:
        await dana.record([{"role": "user", "content": "I live in Porto", "occurred_at": T0}])
        assert [h.text for h in await dana.search("Porto")] == ["I live in Porto"]
    assert await amemory.search("Porto") == []  # and the connections are still open
