"""Where a webhook may point, over the real service: a malformed URL is refused as
INVALID_INPUT when the webhook is added (never INTERNAL, never stored to fail at every
attempt), and so is every address that is not public, in all the forms that reach one,
when added and again at delivery."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime

import httpx
import pytest

from graphmem.core.config import Settings
from graphmem.core.errors import InvalidInput
from graphmem.core.timeutil import to_native
from graphmem.events.targets import check_url
from graphmem.events.webhooks import attempt
from tests.support.client import GraphQLClient
from tests.support.server import serving

ADD = """mutation($ns: String!, $url: String!) {
  addWebhook(namespace: $ns, url: $url) { webhook { id } } }"""
LISTED = """query($ns: String!) { webhooks(namespace: $ns) { id } }"""

MALFORMED = [
    "http://u\x7f@127.0.0.1/h",  # accepted, then failed every dispatch batch it was in
    "http://user:secret@127.0.0.1/h", "http://@127.0.0.1/h",
    "http://127.0.0.1:99999/h", "http://127.0.0.1:0/h", "http://127.0.0.1:http/h",
    "http://[::1", "http://[::1]:99999/h", "http://[zz]/h", "http:///h", "http://:80/h",
    "http://127.0.0.1\n/h", "http://127.0.0.1/h\x00", "http://127.0.0.1/\u0085", "http://a b/h",
    "http://exa\u200bmple.com/h", "http://127.0.0.1/\u202eh",  # invisible, reversing
    "http://a..b/h", f"http://{'a' * 64}.example.com/h", "javascript:alert(1)",
    "file:///etc/passwd", "ftp://127.0.0.1/h", "http://127.0.0.1/" + "x" * 2_000,
]
NOT_PUBLIC = [
    "http://100.64.0.1/h", "http://100.100.100.200/latest/meta-data",  # shared (CGNAT) space
    "http://[2002:7f00:1::]/h", "http://[2002:a9fe:a9fe::]/h",  # 6to4 of loopback, metadata
    "http://[2002:0a00:0001::]/h",  # 6to4 of 10.0.0.1
    "http://[fec0::1]/h",  # site-local
    "http://224.0.0.1/h", "http://224.0.1.1/h", "http://239.255.255.250:1900/h",  # multicast
    "http://[ff02::1]/h", "http://[ff0e::1]/h",
    "http://[::ffff:127.0.0.1]/h", "http://[::ffff:a9fe:a9fe]/h",  # IPv4-mapped
    "http://[::127.0.0.1]/h",  # IPv4-compatible
    "http://[64:ff9b::7f00:1]/h", "http://[64:ff9b::a9fe:a9fe]/h",  # NAT64 of the same
    "http://[64:ff9b:1::1]/h",  # NAT64's local-use prefix
    "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/h",  # Teredo
    "http://127.0.0.1/h", "http://localhost/h", "http://2130706433/h", "http://0x7f.1/h",
    "http://10.0.0.8/h", "http://169.254.169.254/h", "http://[::1]/h", "http://[fe80::1]/h",
    "http://[fc00::1]/h", "http://0.0.0.0/h", "http://[::]/h", "http://255.255.255.255/h",
    "http://198.18.0.1/h", "http://192.0.0.8/h", "http://240.0.0.1/h", "http://192.0.0.9/h",
]
PUBLIC = ["http://93.184.216.34/h", "https://[2606:4700:4700::1111]:8443/h",
          "http://[2002:5db8:d822::]/h", "http://[64:ff9b::5db8:d822]/h"]  # 93.184.216.34


@pytest.fixture(scope="module")
def strict() -> Iterator[str]:
    """The service as deployed: only public addresses (the suite's own app allows loopback
    for its receivers)."""
    with serving(GRAPHMEM_WEBHOOK_ALLOW_PRIVATE="false") as url:
        yield url


@pytest.fixture
async def strict_gql(strict: str, admin_token: str) -> AsyncIterator[GraphQLClient]:
    async with httpx.AsyncClient(base_url=strict, timeout=30) as http:
        yield GraphQLClient(http, admin_token)


@pytest.mark.hostile("webhooks")
@pytest.mark.parametrize("url", MALFORMED)
async def test_a_malformed_url_is_refused_when_added(gql: GraphQLClient, ns: str,
                                                     url: str) -> None:
    refused = await gql(ADD, ns=ns, url=url)
    assert refused["errors"][0]["extensions"]["code"] == "INVALID_INPUT", refused
    assert refused["errors"][0]["extensions"]["field"] == "url"
    assert (await gql.ok(LISTED, ns=ns))["webhooks"] == []


@pytest.mark.hostile("webhooks")
@pytest.mark.parametrize("url", NOT_PUBLIC)
async def test_an_address_that_is_not_public_is_refused(strict_gql: GraphQLClient, ns: str,
                                                        url: str) -> None:
    refused = await strict_gql(ADD, ns=ns, url=url)
    assert refused["errors"][0]["extensions"]["code"] == "INVALID_INPUT", refused
    assert (await strict_gql.ok(LISTED, ns=ns))["webhooks"] == []


@pytest.mark.parametrize("url", PUBLIC)
async def test_a_public_address_is_allowed(url: str) -> None:
    """Including the forms that carry a public IPv4 address (6to4, NAT64)."""
    assert await check_url(url, allow_private=False)


@pytest.mark.hostile("webhooks")
async def test_the_address_is_checked_again_at_delivery(settings: Settings) -> None:
    """A webhook whose name resolved to a public address when it was added may resolve to the
    metadata service later: the attempt is refused before any connection is made."""
    strict = settings.model_copy(update={"webhook_allow_private": False})
    row = {"id": "dlv_x", "ns": "test/x", "attempts": 0, "kind": "fact.created",
           "event_id": "evt_x", "at": to_native(datetime.now(UTC)), "subject_id": "f_x",
           "url": "http://100.100.100.200/latest/meta-data", "secret": "whsec_x"}
    async with httpx.AsyncClient(timeout=strict.webhook_timeout_s) as http:
        outcome = await attempt(http, row, strict)
    assert outcome["last_error"] == InvalidInput.__name__ and outcome["last_status"] is None
    assert outcome["state"] == "pending" and outcome["attempts"] == 1
