"""What a stranger gets from the pages and plain routes of a real `graphmem serve`, with no
key or a narrow one: the Browser guide with a forged Host header (it renders where it was
fetched from into HTML), unauthenticated GETs of every route, `/export` with query-string
tricks, and what `/metrics`, `/healthz` and `/readyz` disclose."""

from __future__ import annotations

import re
import socket
import uuid
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest

from graphmem.db.database import Database
from graphmem.security.auth import create_key
from tests.support.client import GraphQLClient
from tests.support.documents import RECORD, ep
from tests.support.graph import delete_namespace
from tests.support.http import HTTP
from tests.support.server import serving

pytestmark = pytest.mark.hostile("pages")

HOSTS = [b"evil.example'><script>alert(1)</script>", b'x" onmouseover="alert(1)',
         b"evil.example:80/<b>", b"", b"a\tb", b"exa\xe2\x80\x8bmple.com"]


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with serving() as url:
        yield url


def _raw(url: str, request: bytes) -> tuple[bytes, bytes]:
    """One HTTP/1.1 exchange with exactly these bytes (httpx would fix the Host header)."""
    host, port = url.removeprefix("http://").rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=20) as sock:
        sock.sendall(request)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    return head, body


def test_the_browser_guide_never_renders_a_forged_host(server: str) -> None:
    for host in HOSTS:
        head, body = _raw(server, b"GET /browser/guide HTTP/1.1\r\nHost: " + host
                          + b"\r\nX-Forwarded-Host: evil.example\r\nConnection: close\r\n\r\n")
        status = head.split(b"\r\n")[0]
        if status.startswith(b"HTTP/1.1 200"):
            assert b"<script" not in body and b"onmouseover" not in body, host
            assert b"evil.example" not in body, host
        else:
            assert status.startswith(b"HTTP/1.1 400"), (host, status)


def test_unauthenticated_gets_disclose_nothing(server: str) -> None:
    for path in ("/healthz", "/readyz", "/metrics", "/browser/style.grass",
                 "/graphql?query={__typename}", "/export?namespace=demo/alice",
                 "/console/vendor/..%2f..%2fpackage.json", "/console/static/..%2f..%2fcli.py",
                 "/console/static/%2e%2e%2findex.html"):
        answer = HTTP.get(f"{server}{path}", timeout=20)
        text = answer.text
        assert not re.search(r"gm_[0-9a-f]{12}_", text), path  # no key, hashed or not
        assert "bolt://" not in text and "password" not in text.lower(), path
        assert "Traceback" not in text, path
        if path.startswith(("/graphql", "/export")):
            assert answer.status_code == 401, path
        if path.startswith("/console/"):
            assert answer.status_code == 404, path
    metrics = HTTP.get(f"{server}/metrics", timeout=20).text
    assert "ns=" not in metrics and "namespace=\"" not in metrics


@pytest.fixture
async def narrow(client: httpx.AsyncClient, db: Database, gql: GraphQLClient,
                 ns: str) -> AsyncIterator[tuple[httpx.AsyncClient, str, str]]:
    other = f"atk/{uuid.uuid4().hex[:8]}"
    await gql.ok(RECORD, ns=other, eps=[ep("m1", 1, "the other tenant's words")])
    key = await create_key(db, "hostile-export", grants=[ns], admin=False)
    yield client, key, other
    await delete_namespace(db, other)


async def test_export_tricks_with_a_narrow_key(narrow: tuple[httpx.AsyncClient, str, str],
                                               ns: str) -> None:
    client, key, other = narrow
    headers = {"Authorization": f"Bearer {key}"}
    for query in (f"namespace={ns}", f"namespace={ns}&namespace={other}",
                  f"namespace={other}&namespace={ns}", f"namespace={ns.replace('/', '%2F')}",
                  f"namespace={ns}&decrypt=TRUE", f"namespace={ns}&decrypt=1",
                  f"namespace={ns}/../{other}", f"namespace={ns}%00", "namespace=*",
                  f"namespace={ns}/*", f"namespace={other}%20"):
        answer = await client.get(f"/export?{query}", headers=headers)
        assert answer.status_code in (400, 403), query
        assert "the other tenant" not in answer.text and "{\"type\"" not in answer.text, query
