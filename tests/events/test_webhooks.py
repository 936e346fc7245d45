"""Webhooks over the real service: a receiver on loopback gets each event of the kinds it
asked for, signed, retried after failures until it answers 2xx, and the delivery log says
so. (The suite allows private addresses and retries fast: bin/test.)"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from graphmem.core.errors import InvalidInput
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database
from graphmem.events import outbox
from graphmem.events.outbox import EventKind
from graphmem.events.webhooks import check_url, pinned
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
    assert pinned("https://u:p@hooks.example.com:8443/h?x=1", "93.184.216.34") == (
        "https://u:p@93.184.216.34:8443/h?x=1", {"Host": "hooks.example.com:8443"},
        {"sni_hostname": "hooks.example.com"})  # the certificate is checked for the name
    assert pinned("http://example.com/h", "2606:2800:220:1::1") == (
        "http://[2606:2800:220:1::1]/h", {"Host": "example.com"},
        {"sni_hostname": "example.com"})
