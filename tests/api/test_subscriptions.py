"""`memoryEvents` over the real service: a `graphmem serve` process, a WebSocket client speaking
graphql-transport-ws, and changes made through the HTTP API. Each kind of event arrives once,
after commit, for its namespace only, and only for a key that may read it."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
import websockets
from websockets.asyncio.client import ClientConnection

from graphmem.core.config import get_settings
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database
from graphmem.jobs import queue as jobs
from graphmem.security.auth import create_key
from tests.support.client import GraphQLClient
from tests.support.documents import ASSERT, POLICY, RECORD, fact, said
from tests.support.graph import delete_namespace
from tests.support.http import HTTP
from tests.support.server import serving
from tests.support.tenants import TENANTS, make_tenant, traces

EVENTS = """subscription($ns: String!, $kinds: [MemoryEventKind!]) {
  memoryEvents(namespace: $ns, kinds: $kinds) { id kind namespace subjectId
    fact { text status } } }"""


@pytest.fixture(scope="module")
def service() -> Iterator[str]:
    with serving() as url:
        yield url


@asynccontextmanager
async def subscribed(url: str, key: str, ns: str, **variables: Any,
                     ) -> AsyncIterator[ClientConnection]:
    """A WebSocket with one `memoryEvents` subscription running (acknowledged)."""
    async with websockets.connect(url.replace("http", "ws") + "/graphql",
                                  subprotocols=["graphql-transport-ws"]) as ws:  # type: ignore[list-item]
        await ws.send(json.dumps({"type": "connection_init",
                                  "payload": {"Authorization": f"Bearer {key}"}}))
        assert json.loads(await ws.recv())["type"] == "connection_ack"
        await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {
            "query": EVENTS, "variables": {"ns": ns, **variables}}}))
        await asyncio.sleep(1.0)  # the subscription starts listening (and polls)
        yield ws


async def received(ws: ClientConnection, quiet_s: float = 2.5) -> list[dict[str, Any]]:
    """Every message until none came for ``quiet_s``."""
    messages = []
    while True:
        try:
            messages.append(json.loads(await asyncio.wait_for(ws.recv(), quiet_s)))
        except TimeoutError:
            return messages


async def gql(url: str, key: str, query: str, **variables: Any) -> dict[str, Any]:
    async with httpx.AsyncClient(timeout=30) as http:
        body = (await http.post(f"{url}/graphql", json={"query": query, "variables": variables},
                                headers={"Authorization": f"Bearer {key}"})).json()
    assert not body.get("errors"), body["errors"]
    data: dict[str, Any] = body["data"]
    return data


async def test_each_kind_arrives_once_after_commit_and_only_for_its_namespace(
        service: str, admin_token: str, ns: str, db: Database) -> None:
    other = f"{ns}-other"
    async with subscribed(service, admin_token, ns) as ws, \
            subscribed(service, admin_token, other) as elsewhere:
        await gql(service, admin_token, POLICY, ns=ns, p="lives_in", c="ONE", s="MANUAL")
        await gql(service, admin_token, RECORD, ns=ns, eps=[
            said("m1", "2026-05-01T10:00:00Z", "I live in Porto"),
            said("m2", "2026-05-02T10:00:00Z", "I live in Lisbon")])
        made = await gql(service, admin_token, ASSERT, ns=ns, facts=[
            fact("user", "lives_in", "Porto", evidence=["m1"]),
            fact("user", "lives_in", "Lisbon", evidence=["m2"]),
            fact("user", "likes", "tea", evidence=["m1"])])
        ids = [row["fact"]["id"] for row in made["assertFacts"]]
        conflicts = await gql(service, admin_token, """query($ns: String!) {
            conflicts(namespace: $ns) { nodes { id } } }""", ns=ns)
        conflict = conflicts["conflicts"]["nodes"][0]["id"]
        await gql(service, admin_token, """mutation($ns: String!, $c: ID!, $keep: ID!) {
            resolveConflict(namespace: $ns, conflictId: $c, keep: $keep, reason: "moved") {
            id } }""", ns=ns, c=conflict, keep=ids[1])
        await gql(service, admin_token, """mutation($ns: String!) { writeSummary(namespace: $ns,
            summary: {text: "Lives in Lisbon, likes tea.", covers: ["m1", "m2"]}) { id } }""",
                  ns=ns)
        await gql(service, admin_token, """mutation($ns: String!, $id: ID!) {
            retractFact(namespace: $ns, factId: $id, reason: "not any more") { id } }""",
                  ns=ns, id=ids[2])
        await gql(service, admin_token, """mutation($ns: String!) {
            eraseEpisodes(namespace: $ns, ids: ["m1"]) { id } }""", ns=ns)
        failed = await failed_job(db, ns)
        messages = await received(ws)
        assert await received(elsewhere, 0.5) == []  # another namespace's: none
    events = [m["payload"]["data"]["memoryEvents"] for m in messages if m["type"] == "next"]
    assert [m for m in messages if m["type"] != "next"] == []
    assert len({e["id"] for e in events}) == len(events)  # each once
    assert {e["namespace"] for e in events} == {ns}
    kinds = Counter(e["kind"] for e in events)
    # Created: the three asserted, and Porto's narrowed version when the conflict was
    # resolved for Lisbon (Porto held until Lisbon began), which superseded the original.
    # Retracted: tea (by hand), then the narrowed Porto (its only evidence, m1, erased).
    assert kinds == {"FACT_CREATED": 4, "CONFLICT_OPENED": 1, "CONFLICT_RESOLVED": 1,
                     "FACT_SUPERSEDED": 1, "SUMMARY_WRITTEN": 1, "FACT_RETRACTED": 2,
                     "SUMMARY_STALE": 1, "ERASURE_DONE": 1, "JOB_FAILED": 1}, kinds
    assert next(e for e in events if e["kind"] == "JOB_FAILED")["subjectId"] == failed
    superseded = next(e for e in events if e["kind"] == "FACT_SUPERSEDED")
    assert superseded["subjectId"] == ids[0] and superseded["fact"]["status"] == "SUPERSEDED"


async def failed_job(db: Database, ns: str) -> str:
    """A job of ``ns`` failed for good, as a worker records it. A worker of the suite may take
    a queued job first (it then finishes: nothing to extract, no event): queue another."""
    for _ in range(5):
        queued = await jobs.enqueue(db, Namespace(ns), jobs.JobKind.EXTRACT, [])
        claim = await jobs.claim(db, "test-worker", 30, queued.id)
        if claim is not None:
            assert await jobs.fail(db, claim, "refused", get_settings(), final=True)
            return queued.id
    raise AssertionError("every job was taken by another worker")


async def test_kinds_filter_what_arrives(service: str, admin_token: str, ns: str) -> None:
    async with subscribed(service, admin_token, ns, kinds=["FACT_RETRACTED"]) as ws:
        made = await gql(service, admin_token, ASSERT, ns=ns, facts=[fact("user", "likes", "jazz")])
        await gql(service, admin_token, """mutation($ns: String!, $id: ID!) {
            retractFact(namespace: $ns, factId: $id, reason: "no") { id } }""",
                  ns=ns, id=made["assertFacts"][0]["fact"]["id"])
        kinds = [m["payload"]["data"]["memoryEvents"]["kind"] for m in await received(ws)]
    assert kinds == ["FACT_RETRACTED"]


async def test_a_bad_key_is_refused_and_another_tenant_gets_an_error(
        service: str, db: Database, ns: str) -> None:
    async with websockets.connect(service.replace("http", "ws") + "/graphql",
                                  subprotocols=["graphql-transport-ws"]) as ws:  # type: ignore[list-item]
        await ws.send(json.dumps({"type": "connection_init",
                                  "payload": {"Authorization": "Bearer gm_nope"}}))
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await ws.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
    stranger = await create_key(db, "stranger", grants=["someone-else/*"], admin=False)
    async with subscribed(service, stranger, ns) as ws:
        answer = await received(ws, 1.0)
    assert answer[0]["type"] == "error" or (
        answer[0]["type"] == "next" and answer[0]["payload"]["errors"][0]["extensions"]["code"]
        == "FORBIDDEN"), answer


async def test_a_process_runs_a_bounded_number_of_subscriptions(
        admin_token: str, ns: str) -> None:
    """Each subscription polls Neo4j: one key opening many must not load it without end."""
    with serving(GRAPHMEM_MAX_SUBSCRIPTIONS="2") as url:
        async with subscribed(url, admin_token, ns) as ws:
            for number in ("2", "3"):
                await ws.send(json.dumps({"id": number, "type": "subscribe", "payload": {
                    "query": EVENTS, "variables": {"ns": ns}}}))
            answer = await received(ws, 1.5)
    # The third is refused and completed; the second runs on.
    assert [(m["id"], m["type"]) for m in answer] == [("3", "next"), ("3", "complete")], answer
    assert answer[0]["payload"]["errors"][0]["extensions"]["code"] == "QUERY_TOO_COSTLY"


BATCHES = """subscription($ns: String!) {
  memoryEventBatches(namespace: $ns, kinds: [FACT_CREATED]) {
    events { id kind subjectId fact { text } } } }"""


def by_ids_reads(url: str) -> float:
    """How often the service has read facts by id (its Cypher latency count)."""
    text = HTTP.get(f"{url}/metrics", timeout=10).text
    line = next((line for line in text.splitlines() if line.startswith(
        'graphmem_cypher_seconds_count{statement="facts/by_ids"}')), None)
    return float(line.rsplit(" ", 1)[1]) if line else 0.0


@pytest.mark.hostile("subscriptions")
async def test_a_large_transaction_comes_as_few_messages_and_few_reads(
        service: str, admin_token: str, ns: str) -> None:
    """One assertFacts of 300 facts told to three listeners asking for each fact's text: a
    handful of messages and of reads, not one per event per listener (1,000 facts to ten
    listeners had been 10,000 messages and 22 CPU-seconds)."""
    made = [fact("user", "likes", f"thing {i}") for i in range(300)]
    async with websockets.connect(service.replace("http", "ws") + "/graphql",
                                  subprotocols=["graphql-transport-ws"]) as ws:  # type: ignore[list-item]
        await ws.send(json.dumps({"type": "connection_init",
                                  "payload": {"Authorization": f"Bearer {admin_token}"}}))
        assert json.loads(await ws.recv())["type"] == "connection_ack"
        for listener in range(3):
            await ws.send(json.dumps({"id": str(listener), "type": "subscribe", "payload": {
                "query": BATCHES, "variables": {"ns": ns}}}))
        await asyncio.sleep(1.0)
        before = by_ids_reads(service)
        await gql(service, admin_token, ASSERT, ns=ns, facts=made)
        messages = await received(ws)
        reads = by_ids_reads(service) - before
    assert {m["type"] for m in messages} == {"next"}
    for listener in range(3):
        told = [e for m in messages if m["id"] == str(listener)
                for e in m["payload"]["data"]["memoryEventBatches"]["events"]]
        assert sorted(e["fact"]["text"] for e in told) == sorted(
            f"user likes thing {i}" for i in range(300))
        assert len({e["id"] for e in told}) == 300
    assert len(messages) <= 3 * 3 and reads <= 3 * 3


async def test_tenants_that_differ_in_everything_hear_only_their_own_events(
        service: str, db: Database, admin_token: str) -> None:
    """Each tenant's narrow key listens to its own namespace while both write: every event
    it hears is its own, and what it reads through them (the fact) names nothing of the
    other's speaker, place, predicate or time."""
    names = {k: f"iso/{uuid.uuid4().hex[:8]}-{k}" for k in TENANTS}
    keys = {k: await create_key(db, f"iso-ev-{k}", grants=[names[k]], admin=False)
            for k in TENANTS}
    try:
        async with subscribed(service, keys["a"], names["a"]) as a, \
                subscribed(service, keys["b"], names["b"]) as b, \
                httpx.AsyncClient(base_url=service, timeout=30) as http:
            writer = GraphQLClient(http, admin_token)
            for k, t in TENANTS.items():
                await make_tenant(writer, names[k], t)
            heard = {"a": await received(a), "b": await received(b, 0.5)}
        for me, them in (("a", "b"), ("b", "a")):
            events = [m["payload"]["data"]["memoryEvents"] for m in heard[me]
                      if m["type"] == "next"]
            assert {e["kind"] for e in events} >= {"FACT_CREATED", "SUMMARY_WRITTEN"}, me
            assert {e["namespace"] for e in events} == {names[me]}
            told = json.dumps(events).lower()
            assert TENANTS[me]["place"].lower() in told
            assert not [w for w in traces(TENANTS[them]) if w.lower() in told], me
    finally:
        for name in names.values():
            await delete_namespace(db, name)
