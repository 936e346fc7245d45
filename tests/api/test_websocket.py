"""One policy for every transport: what holds over HTTP holds over a WebSocket, for as long as
the socket is open. A real `graphmem serve` with short cache and idle times and small caps; a
graphql-transport-ws client; the key revoked, the evidence erased, the rate spent, the size
and Unicode checks tried, on a socket opened before."""

from __future__ import annotations

import asyncio
import contextlib
import json
import uuid
from collections.abc import Iterator

import httpx
import pytest
import websockets

from graphmem.db.database import Database
from graphmem.security.auth import create_key, revoke_key
from tests.support.documents import ASSERT, RECORD, ep, fact
from tests.support.graph import episode_contents
from tests.support.server import serving
from tests.support.sockets import close_code, data, error_codes, operate, socket

pytestmark = pytest.mark.hostile("websocket")

CACHE_S, IDLE_S, SOCKETS, SUBSCRIPTIONS, RATE, BODY = 1, 4, 3, 2, 30, 100_000
EVENTS = """subscription($ns: String!) { memoryEvents(namespace: $ns) { id kind } }"""
EVIDENCE = """query($ns: String!) { facts(namespace: $ns) { nodes { id
  evidence { externalId content } } } }"""
ERASE = """mutation($ns: String!, $ids: [String!]!) { eraseEpisodes(namespace: $ns, ids: $ids) {
  verified } }"""
EPISODES = """query($ns: String!) { episodes(namespace: $ns) { nodes { content } } }"""


@pytest.fixture(scope="module")
def service() -> Iterator[str]:
    with serving(GRAPHMEM_AUTH_CACHE_S=str(CACHE_S), GRAPHMEM_SOCKET_IDLE_S=str(IDLE_S),
                 GRAPHMEM_MAX_SOCKETS_PER_KEY=str(SOCKETS),
                 GRAPHMEM_MAX_SUBSCRIPTIONS_PER_KEY=str(SUBSCRIPTIONS),
                 GRAPHMEM_RATE_LIMIT_PER_MINUTE=str(RATE),
                 GRAPHMEM_MAX_BODY_BYTES=str(BODY)) as url:
        yield url


async def narrow_key(db: Database, ns: str) -> tuple[str, str]:
    """A fresh key granted ``ns`` only (its own rate bucket and socket count): (token, id)."""
    token = await create_key(db, f"ws-{uuid.uuid4().hex[:6]}", grants=[ns], admin=False)
    return token, token.split("_")[1]


async def test_a_revoked_key_is_closed_out_of_a_running_subscription(
        service: str, db: Database, ns: str) -> None:
    token, key_id = await narrow_key(db, ns)
    async with socket(service, token) as ws:
        await ws.send(json.dumps({"id": "events", "type": "subscribe",
                                  "payload": {"query": EVENTS, "variables": {"ns": ns}}}))
        await asyncio.sleep(0.5)
        assert await close_code(ws, 0.5) is None  # subscribed, open
        await revoke_key(db, key_id)
        # Within the cache time and one look of the watch, nothing else sent on the socket.
        assert await close_code(ws, CACHE_S + 4) == 4403


async def test_a_revoked_key_cannot_write_or_read_on_a_socket_opened_before(
        service: str, db: Database, ns: str) -> None:
    token, key_id = await narrow_key(db, ns)
    async with socket(service, token) as ws:
        written = await operate(ws, "1", RECORD, ns=ns, eps=[ep("before", 1, "kept")])
        assert data(written)["recordEpisodes"]["created"] == 1
        await revoke_key(db, key_id)
        await asyncio.sleep(CACHE_S + 0.2)  # the cached key expires
        # The operation's own check, or the watch just before it, closes the socket.
        with contextlib.suppress(websockets.ConnectionClosed):
            await ws.send(json.dumps({"id": "2", "type": "subscribe", "payload": {
                "query": RECORD, "variables": {"ns": ns, "eps": [ep("after", 2, "no")]}}}))
        assert await close_code(ws, 5) == 4403
    async with httpx.AsyncClient() as http:
        answer = await http.post(f"{service}/graphql", json={"query": EPISODES,
                                                             "variables": {"ns": ns}},
                                 headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 401
    assert await episode_contents(db, ns) == ["kept"]



async def test_each_operation_checks_the_key_itself(db: Database, ns: str) -> None:
    """Without a cache a revocation holds at once: the very next operation on an open socket
    is refused by its own check (the watch looks only every second), and writes nothing."""
    token, key_id = await narrow_key(db, ns)
    with serving(GRAPHMEM_AUTH_CACHE_S="0") as url:
        async with socket(url, token) as ws:
            assert data(await operate(ws, "1", RECORD, ns=ns, eps=[ep("before", 1, "kept")]))
            await revoke_key(db, key_id)
            with contextlib.suppress(websockets.ConnectionClosed):
                await ws.send(json.dumps({"id": "2", "type": "subscribe", "payload": {
                    "query": RECORD, "variables": {"ns": ns, "eps": [ep("after", 2, "no")]}}}))
            assert await close_code(ws, 5) == 4403
        listener, listener_id = await narrow_key(db, ns)
        async with socket(url, listener) as ws:  # only a subscription: the watch's part
            await ws.send(json.dumps({"id": "events", "type": "subscribe",
                                      "payload": {"query": EVENTS, "variables": {"ns": ns}}}))
            await asyncio.sleep(0.5)
            await revoke_key(db, listener_id)
            assert await close_code(ws, 3) == 4403  # within a look of the watch (1 s)
    assert await episode_contents(db, ns) == ["kept"]

async def test_erased_evidence_is_not_served_from_an_earlier_operation_on_the_socket(
        service: str, db: Database, ns: str) -> None:
    token, _ = await narrow_key(db, ns)
    secret = f"my locker code is {uuid.uuid4().hex[:8]}"
    async with socket(service, token) as ws:
        data(await operate(ws, "r", RECORD, ns=ns, eps=[ep("m1", 1, secret)]))
        data(await operate(ws, "a", ASSERT, ns=ns,
                           facts=[fact("user", "has_locker_code", "1234", evidence=["m1"])]))
        before = data(await operate(ws, "q1", EVIDENCE, ns=ns))
        assert before["facts"]["nodes"][0]["evidence"][0]["content"] == secret
        assert data(await operate(ws, "e", ERASE, ns=ns, ids=["m1"]))["eraseEpisodes"][
            "verified"]
        after = data(await operate(ws, "q2", """query($ns: String!) { facts(namespace: $ns,
            includeHistory: true) { nodes { evidence { content } } } }""", ns=ns))
        episodes = data(await operate(ws, "q3", EPISODES, ns=ns))
    assert secret not in json.dumps(after) and secret not in json.dumps(episodes)


async def test_the_rate_is_one_bucket_for_http_and_sockets(
        service: str, db: Database, ns: str) -> None:
    token, _ = await narrow_key(db, ns)
    codes: list[list[str]] = []
    async with socket(service, token) as ws:
        for i in range(RATE + 5):
            codes.append(error_codes(await operate(ws, f"q{i}", EPISODES, ns=ns)))
        limited = (await operate(ws, "last", EPISODES, ns=ns))[0]
    refused = [c for c in codes if c == ["RATE_LIMITED"]]
    assert 5 <= len(refused) <= 6 and codes[:RATE - 1] == [[]] * (RATE - 1)
    assert limited["type"] == "error"
    assert limited["payload"][0]["extensions"]["retryAfter"] >= 1
    assert limited["payload"][0]["extensions"]["retryable"] is True
    async with httpx.AsyncClient() as http:  # the same key over HTTP: the same empty bucket
        answer = await http.post(f"{service}/graphql", json={"query": EPISODES,
                                                             "variables": {"ns": ns}},
                                 headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 429


async def test_a_message_over_the_body_cap_closes_the_socket_and_writes_nothing(
        service: str, db: Database, ns: str) -> None:
    token, _ = await narrow_key(db, ns)
    async with socket(service, token) as ws:
        await ws.send(json.dumps({"id": "big", "type": "subscribe", "payload": {
            "query": RECORD, "variables": {"ns": ns, "eps": [ep("big", 1, "x" * BODY)]}}}))
        assert await close_code(ws, 5) == 1009
    assert await episode_contents(db, ns) == []



async def test_a_message_of_exactly_the_body_cap_is_served(
        service: str, db: Database, ns: str) -> None:
    """The cap is the largest message read: at it the turn is recorded, the socket open."""
    token, _ = await narrow_key(db, ns)

    def message(size: int) -> str:
        def text(content: str) -> str:
            return json.dumps({"id": "exact", "type": "subscribe", "payload": {
                "query": RECORD, "variables": {"ns": ns, "eps": [ep("exact", 1, content)]}}})
        return text("x" * (size - len(text(""))))

    async with socket(service, token) as ws:
        await ws.send(message(BODY))
        reply = json.loads(await asyncio.wait_for(ws.recv(), 30))
        assert reply["type"] == "next" and not reply["payload"].get("errors"), reply
        assert await close_code(ws, 0.5) is None
    assert await episode_contents(db, ns) == ["x" * (BODY - len(message(0)))]

async def test_a_lone_surrogate_is_invalid_input_as_over_http(
        service: str, db: Database, ns: str) -> None:
    token, _ = await narrow_key(db, ns)
    async with socket(service, token) as ws:
        await ws.send('{"id": "s", "type": "subscribe", "payload": {"query": '
                      + json.dumps(RECORD) + ', "variables": {"ns": "' + ns + '", "eps": ['
                      '{"externalId": "s", "kind": "USER_MESSAGE", "content": "a\\ud800b"}]}}}')
        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
        assert message["type"] == "error"
        assert message["payload"][0]["extensions"]["code"] == "INVALID_INPUT"
        assert data(await operate(ws, "after", EPISODES, ns=ns))["episodes"]["nodes"] == []


async def test_a_key_holds_so_many_sockets_and_subscriptions(
        service: str, db: Database, ns: str) -> None:
    token, _ = await narrow_key(db, ns)
    other, _ = await narrow_key(db, ns)
    async with socket(service, token) as a, socket(service, token) as b, \
            socket(service, token) as c:
        async with socket(service, token, init=False) as refused:
            await refused.send(json.dumps({"type": "connection_init",
                                           "payload": {"Authorization": f"Bearer {token}"}}))
            assert await close_code(refused, 5) == 4429
        async with socket(service, other) as elsewhere:  # another key is not held back
            assert data(await operate(elsewhere, "q", EPISODES, ns=ns))
        for i, ws in enumerate((a, b)):
            await ws.send(json.dumps({"id": f"e{i}", "type": "subscribe",
                                      "payload": {"query": EVENTS, "variables": {"ns": ns}}}))
        await asyncio.sleep(0.5)
        assert error_codes(await operate(c, "third", EVENTS, ns=ns)) == ["QUERY_TOO_COSTLY"]
    async with socket(service, token) as again:  # closed sockets are given back
        assert data(await operate(again, "q", EPISODES, ns=ns))



async def test_an_ended_subscription_gives_its_place_back(
        service: str, db: Database, ns: str) -> None:
    token, _ = await narrow_key(db, ns)

    def subscribe(op_id: str) -> str:
        return json.dumps({"id": op_id, "type": "subscribe",
                           "payload": {"query": EVENTS, "variables": {"ns": ns}}})

    async with socket(service, token) as ws:
        for i in range(SUBSCRIPTIONS):
            await ws.send(subscribe(f"e{i}"))
        await asyncio.sleep(0.5)
        assert error_codes(await operate(ws, "over", EVENTS, ns=ns)) == ["QUERY_TOO_COSTLY"]
        await ws.send(json.dumps({"id": "e0", "type": "complete"}))
        await asyncio.sleep(0.5)
        await ws.send(subscribe("again"))
        heard = []
        with contextlib.suppress(TimeoutError):
            while True:
                heard.append(json.loads(await asyncio.wait_for(ws.recv(), 2)))
        assert [m for m in heard if m.get("id") == "again"] == []  # running, no error
        assert await close_code(ws, 0.2) is None


async def test_the_key_may_come_as_lower_case_authorization(
        service: str, db: Database, ns: str) -> None:
    """graphql-ws clients send connectionParams as the application wrote them."""
    token, _ = await narrow_key(db, ns)
    async with socket(service, token, init=False) as ws:
        await ws.send(json.dumps({"type": "connection_init",
                                  "payload": {"authorization": f"Bearer {token}"}}))
        assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "connection_ack"
        assert data(await operate(ws, "q", EPISODES, ns=ns)) == {"episodes": {"nodes": []}}

async def test_an_idle_socket_is_closed_but_a_listening_one_is_kept(
        service: str, db: Database, ns: str) -> None:
    token, _ = await narrow_key(db, ns)
    async with socket(service, token) as idle, socket(service, token) as listening:
        await listening.send(json.dumps({"id": "e", "type": "subscribe",
                                         "payload": {"query": EVENTS, "variables": {"ns": ns}}}))
        assert await close_code(idle, IDLE_S + 4) == 1000
        assert await close_code(listening, 1) is None


@pytest.mark.parametrize("message", [
    "[]", '"connection_init"', "5", "null", '{"type": 5}', '{"payload": {}}',
    '{"type": "connection_init", "payload": []}'])
async def test_malformed_messages_before_init_close_with_4400(service: str, message: str) -> None:
    async with socket(service, None, init=False) as ws:
        await ws.send(message)
        assert await close_code(ws, 5) == 4400


@pytest.mark.parametrize("payload", [
    None, [], "q", {}, {"query": 5}, {"query": "{ __typename }", "variables": []},
    {"query": "{ __typename }", "operationName": 3}, {"query": ""}, {"query": " "}])
async def test_malformed_subscribe_messages_close_with_4400(
        service: str, db: Database, ns: str, payload: object) -> None:
    token, _ = await narrow_key(db, ns)
    async with socket(service, token) as ws:
        await ws.send(json.dumps({"id": "x", "type": "subscribe", "payload": payload}))
        assert await close_code(ws, 5) == 4400


async def test_a_subscription_sent_over_http_is_the_clients_error(
        service: str, admin_token: str, ns: str) -> None:
    async with httpx.AsyncClient() as http:
        answer = await http.post(f"{service}/graphql", json={"query": EVENTS,
                                                             "variables": {"ns": ns}},
                                 headers={"Authorization": f"Bearer {admin_token}"})
    assert [e["extensions"]["code"] for e in answer.json()["errors"]] == ["INVALID_INPUT"]


@pytest.mark.parametrize("query", ["{ x", "query { " + "a " * 6000 + "}", "{ nope }"])
async def test_a_document_that_does_not_parse_or_validate_is_a_typed_error(
        service: str, db: Database, ns: str, query: str) -> None:
    """As over HTTP: GRAPHQL_VALIDATION for a syntax error or one over the token limit (a
    bare `complete` before), and the socket goes on."""
    token, _ = await narrow_key(db, ns)
    async with socket(service, token) as ws:
        assert error_codes(await operate(ws, "bad", query)) == ["GRAPHQL_VALIDATION"]
        assert data(await operate(ws, "after", EPISODES, ns=ns))["episodes"]["nodes"] == []
