"""Webhooks over the real service: a receiver on loopback gets each event of the kinds it
asked for, signed, retried after failures until it answers 2xx, and the delivery log says
so; a receiver that stalls or answers without end, or a URL that cannot be sent to, costs its
own delivery and no other's. (The suite allows private addresses and retries fast: bin/test.)"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import threading
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from graphmem.core.config import Settings
from graphmem.core.errors import InvalidInput
from graphmem.core.namespaces import Namespace
from graphmem.core.timeutil import to_native
from graphmem.db.database import Database, Tx
from graphmem.events import outbox, webhooks
from graphmem.events.outbox import EventKind
from graphmem.events.targets import check_url, pinned
from graphmem.security.auth import create_key
from tests.support.client import GraphQLClient
from tests.support.documents import ASSERT, fact

ADD = """mutation($ns: String!, $url: String!, $kinds: [MemoryEventKind!]) {
  addWebhook(namespace: $ns, url: $url, kinds: $kinds) { secret webhook { id url kinds } } }"""
LOG = """query($ns: String!) { webhooks(namespace: $ns) { id url kinds
  deliveries { kind state attempts lastStatus lastError deliveredAt } } }"""


class Receiver:
    """An HTTP endpoint on loopback that answers each POST with the next scripted status
    (then 200) and keeps what it was sent."""

    def __init__(self, statuses: list[int]) -> None:
        self.statuses = statuses
        self.received: list[tuple[dict[str, str], bytes]] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # the standard library names it so
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.received.append((dict(self.headers), body))
                status = receiver.statuses.pop(0) if receiver.statuses else 200
                self.send_response(status)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"


@pytest.fixture
def receiver(request: pytest.FixtureRequest) -> Iterator[Receiver]:
    made = Receiver(list(getattr(request, "param", [])))
    thread = threading.Thread(target=made.server.serve_forever, daemon=True)
    thread.start()
    yield made
    made.server.shutdown()


def verified(secret: str, headers: dict[str, str], body: bytes) -> bool:
    stamp, mac = (part.split("=", 1)[1] for part in headers["Graphmem-Signature"].split(","))
    expected = hmac.new(secret.encode(), f"{stamp}.".encode() + body, hashlib.sha256)
    return hmac.compare_digest(mac, expected.hexdigest())


async def until(check: Any, seconds: float = 20.0) -> None:
    for _ in range(int(seconds / 0.1)):
        if await check():
            return
        await asyncio.sleep(0.1)
    raise AssertionError("not within the time")


@pytest.mark.parametrize("receiver", [[500, 503]], indirect=True)
async def test_events_arrive_signed_and_retried_until_accepted(
        gql: GraphQLClient, ns: str, receiver: Receiver) -> None:
    added = (await gql.ok(ADD, ns=ns, url=receiver.url, kinds=["FACT_CREATED"]))["addWebhook"]
    made = await gql.ok(ASSERT, ns=ns, facts=[fact("user", "likes", "tea")])
    await gql.ok("""mutation($ns: String!, $id: ID!) { retractFact(namespace: $ns, factId: $id,
        reason: "no") { id } }""", ns=ns, id=made["assertFacts"][0]["fact"]["id"])

    async def delivered() -> bool:
        hooks = (await gql.ok(LOG, ns=ns))["webhooks"]
        return [d["state"] for d in hooks[0]["deliveries"]] == ["delivered"]

    await until(delivered)
    assert len(receiver.received) == 3  # two refusals, then accepted: one event
    for headers, body in receiver.received:
        assert verified(added["secret"], headers, body)
        assert headers["Host"] == receiver.url.split("/")[2]
    bodies = {body for _, body in receiver.received}
    assert len(bodies) == 1 and {h["Graphmem-Delivery"] for h, _ in receiver.received} == {
        receiver.received[0][0]["Graphmem-Delivery"]}
    event = json.loads(bodies.pop())
    assert event["kind"] == "FACT_CREATED" and event["namespace"] == ns
    assert event["subjectId"] == made["assertFacts"][0]["fact"]["id"]
    log = (await gql.ok(LOG, ns=ns))["webhooks"][0]
    assert "secret" not in json.dumps(log)
    assert log["deliveries"][0] | {"deliveredAt": None} == {
        "kind": "FACT_CREATED", "state": "delivered", "attempts": 3, "lastStatus": 200,
        "lastError": None, "deliveredAt": None}


async def test_each_fact_of_a_batch_is_delivered_as_its_own_event(
        gql: GraphQLClient, ns: str, receiver: Receiver, db: Database) -> None:
    await gql.ok(ADD, ns=ns, url=receiver.url, kinds=["FACT_CREATED"])
    made = await gql.ok(ASSERT, ns=ns, facts=[fact("user", "likes", thing)
                                               for thing in ("tea", "jazz", "rain")])

    async def delivered() -> bool:
        hooks = (await gql.ok(LOG, ns=ns))["webhooks"]
        return [d["state"] for d in hooks[0]["deliveries"]] == ["delivered"] * 3

    await until(delivered)
    sent = [json.loads(body) for _, body in receiver.received]
    told = await outbox.since(db, Namespace(ns), [EventKind.FACT_CREATED],
                              datetime.now(UTC) - timedelta(minutes=1))
    assert sorted((e["id"], e["subjectId"]) for e in sent) == sorted(
        (e.id, e.subject_id) for e in told)
    assert {e["subjectId"] for e in sent} == {f["fact"]["id"] for f in made["assertFacts"]}
    assert len({e["id"] for e in sent}) == 3


@pytest.mark.parametrize("receiver", [[302, 307]], indirect=True)
async def test_a_redirect_is_no_delivery(gql: GraphQLClient, ns: str,
                                         receiver: Receiver) -> None:
    """Only a 2xx delivers: a redirect is not followed (each hop would need checking), so
    the event did not arrive, and it is tried again."""
    await gql.ok(ADD, ns=ns, url=receiver.url, kinds=["FACT_CREATED"])
    await gql.ok(ASSERT, ns=ns, facts=[fact("user", "likes", "tea")])

    async def delivered() -> bool:
        hooks = (await gql.ok(LOG, ns=ns))["webhooks"]
        return [d["state"] for d in hooks[0]["deliveries"]] == ["delivered"]

    await until(delivered)
    assert len(receiver.received) == 3
    assert (await gql.ok(LOG, ns=ns))["webhooks"][0]["deliveries"][0] | {
        "deliveredAt": None} == {"kind": "FACT_CREATED", "state": "delivered", "attempts": 3,
                                 "lastStatus": 200, "lastError": None, "deliveredAt": None}


@pytest.mark.parametrize("receiver", [[500] * 20], indirect=True)
async def test_a_delivery_that_keeps_failing_stops_as_failed(
        gql: GraphQLClient, ns: str, receiver: Receiver) -> None:
    await gql.ok(ADD, ns=ns, url=receiver.url, kinds=None)
    await gql.ok(ASSERT, ns=ns, facts=[fact("user", "likes", "jazz")])

    async def failed() -> bool:
        deliveries = (await gql.ok(LOG, ns=ns))["webhooks"][0]["deliveries"]
        return bool(deliveries) and deliveries[0]["state"] == "failed"

    await until(failed, 40)
    deliveries = (await gql.ok(LOG, ns=ns))["webhooks"][0]["deliveries"]
    assert deliveries[0]["attempts"] == 4 and deliveries[0]["lastStatus"] == 500
    assert len(receiver.received) == 4


async def test_only_admins_add_webhooks_and_only_to_public_addresses(
        gql: GraphQLClient, ns: str, db: Database) -> None:
    key = await create_key(db, "not-admin", grants=[ns], admin=False)
    refused = await GraphQLClient(gql.http, key)(ADD, ns=ns, url="https://example.com/h")
    assert refused["errors"][0]["extensions"]["code"] == "FORBIDDEN"
    for url in ("http://127.0.0.1:9/h", "http://10.0.0.8/h", "http://[::1]/h",
                "http://169.254.169.254/latest", "file:///etc/passwd", "ftp://x/y"):
        with pytest.raises(InvalidInput):
            await check_url(url, allow_private=False)


def test_a_delivery_goes_to_the_address_that_was_checked() -> None:
    """The host is resolved and checked once, then connected to by that address: a name that
    resolves elsewhere a moment later (DNS rebinding) is never followed."""
    assert pinned("https://hooks.example.com:8443/h?x=1", "93.184.216.34") == (
        "https://93.184.216.34:8443/h?x=1", {"Host": "hooks.example.com:8443"},
        {"sni_hostname": "hooks.example.com"})  # the certificate is checked for the name
    assert pinned("http://example.com/h", "2606:2800:220:1::1") == (
        "http://[2606:2800:220:1::1]/h", {"Host": "example.com"},
        {"sni_hostname": "example.com"})


class Answering:
    """A receiver on loopback written on asyncio streams, so it can answer as no well-behaved
    server does: ``trickle`` sends its answer's header a byte a second, without end; ``size``
    answers 200 with a body of that many bytes. ``sent`` counts the body's bytes the client
    took before it hung up."""

    def __init__(self, trickle: bool = False, size: int = 0) -> None:
        self.trickle, self.size = trickle, size
        self.requests, self.sent, self.done = 0, 0, asyncio.Event()

    async def __aenter__(self) -> Answering:
        self.server = await asyncio.start_server(self._answer, "127.0.0.1", 0)
        self.url = f"http://127.0.0.1:{self.server.sockets[0].getsockname()[1]}/hook"
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.server.close()

    async def _answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                          if line.lower().startswith(b"content-length:"))
            await reader.readexactly(length)
            self.requests += 1
            if self.trickle:
                writer.write(b"HTTP/1.1 200 OK\r\nX-Slow: ")
                while True:  # each read is quick: only a deadline on the whole ends it
                    await writer.drain()
                    await asyncio.sleep(1)
                    writer.write(b"a")
            writer.write(f"HTTP/1.1 200 OK\r\nContent-Length: {self.size}\r\n\r\n".encode())
            chunk = b"x" * 2**20
            while self.sent < self.size:
                writer.write(chunk)
                await writer.drain()
                self.sent += len(chunk)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass  # the client hung up: what it took is counted
        finally:
            self.done.set()
            writer.close()


async def dispatched(db: Database, settings: Settings, *namespaces: str) -> float:
    """One event in each namespace, committed together and due only a year ahead, then one
    dispatch as of then, as the service makes it; how long it took. No dispatcher of the
    processes sharing the database takes them before (it would be a race), and one batch
    holds them all (with whatever else is pending: that is sent as it would be anyway)."""
    at = datetime.now(UTC) + timedelta(days=365)

    async def emit(tx: Tx) -> None:
        for ns in namespaces:
            await outbox.emit(tx, Namespace(ns), EventKind.FACT_CREATED, [f"f_{ns}"], now=at)

    await db.transaction(emit)
    began = time.monotonic()
    async with webhooks.client(settings) as http:
        await webhooks.deliver_due(db, http, settings, now=at)
    return time.monotonic() - began


async def log_of(gql: GraphQLClient, ns: str) -> dict[str, Any]:
    """The namespace's one delivery."""
    [delivery] = (await gql.ok(LOG, ns=ns))["webhooks"][0]["deliveries"]
    return dict(delivery)


@pytest.mark.hostile("webhooks")
async def test_a_receiver_that_trickles_its_answer_holds_no_other_delivery(
        gql: GraphQLClient, ns: str, other: str, db: Database, receiver: Receiver,
        settings: Settings) -> None:
    async with Answering(trickle=True) as slow:
        await gql.ok(ADD, ns=ns, url=slow.url, kinds=None)
        await gql.ok(ADD, ns=other, url=receiver.url, kinds=None)
        took = await asyncio.wait_for(dispatched(db, settings, ns, other),
                                      settings.webhook_timeout_s + 5)  # had never returned
        stalled = await log_of(gql, ns)
    assert took < settings.webhook_timeout_s + 2  # the deadline, not the receiver, ended it
    assert slow.requests >= 1 and stalled["lastError"] == "TimeoutError"
    assert stalled["state"] != "delivered" and stalled["lastStatus"] is None
    assert len(receiver.received) == 1 and (await log_of(gql, other))["state"] == "delivered"


@pytest.mark.hostile("webhooks")
async def test_a_huge_answer_is_not_read(gql: GraphQLClient, ns: str, db: Database,
                                         settings: Settings) -> None:
    size = 256 * 2**20
    async with Answering(size=size) as huge:
        await gql.ok(ADD, ns=ns, url=huge.url, kinds=None)
        await dispatched(db, settings, ns)
        await asyncio.wait_for(huge.done.wait(), 10)
    # What the kernel's socket buffers took, not the answer: the service read only its start.
    assert huge.sent < 32 * 2**20, huge.sent
    assert (await log_of(gql, ns)) | {"deliveredAt": None} == {
        "kind": "FACT_CREATED", "state": "delivered", "attempts": 1, "lastStatus": 200,
        "lastError": None, "deliveredAt": None}


@pytest.mark.hostile("webhooks")
async def test_a_url_that_cannot_be_sent_to_fails_only_its_own_delivery(
        gql: GraphQLClient, ns: str, other: str, db: Database, receiver: Receiver,
        settings: Settings) -> None:
    """A URL stored before URLs were checked as they are now (``\\x7f`` in its user part):
    httpx refuses it, which had failed the whole batch, unrecorded, so the other namespace's
    delivery in it was POSTed again each time the lease ran out."""
    port = receiver.url.split(":")[2].split("/")[0]
    await db.write("events/webhooks/add", ns=ns, id=f"wh_{uuid.uuid4().hex}", url=(
        f"http://u\x7f@127.0.0.1:{port}/hook"), kinds=[k.value for k in EventKind],
        secret="whsec_x", now=to_native(datetime.now(UTC)))
    await gql.ok(ADD, ns=other, url=receiver.url, kinds=None)
    await dispatched(db, settings, ns, other)
    bad = await log_of(gql, ns)
    assert bad["lastError"] == "InvalidInput" and bad["lastStatus"] is None
    assert (await log_of(gql, other))["state"] == "delivered"
    await asyncio.sleep(1)
    assert len(receiver.received) == 1  # the good one, once; the bad one never sent
    assert json.loads(receiver.received[0][1])["namespace"] == other


@pytest.mark.parametrize("turns", range(3))
async def test_the_dispatcher_stops_when_cancelled_as_an_event_commits(
        db: Database, settings: Settings, turns: int) -> None:
    """A service shutting down cancels its dispatcher as its last writes commit. On Python
    3.11 ``asyncio.wait_for`` swallowed a cancel that met the commit's wake-up in the same
    moment, and the shutdown waited for the dispatcher for good (the scale bench hung so).
    The wake-up is given ``turns`` turns of the event loop before the cancel comes."""
    dispatcher = asyncio.create_task(webhooks.run_dispatcher(
        db, settings.model_copy(update={"webhook_poll_s": 60.0})))
    await asyncio.sleep(0.5)  # resting: nothing is due in an empty outbox
    outbox.notify_committed(db)
    for _ in range(turns):
        await asyncio.sleep(0)
    dispatcher.cancel()
    done, _ = await asyncio.wait({dispatcher}, timeout=5)
    if not done:  # the failure this test guards against: stop it for the tests after
        dispatcher.cancel()
        await asyncio.wait({dispatcher}, timeout=5)
    assert done and dispatcher.cancelled()
