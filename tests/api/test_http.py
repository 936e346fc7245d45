"""The HTTP shell: health, readiness, authentication before GraphQL, size limits."""

from __future__ import annotations

import asyncio
import json
import time

import httpx
import pytest
from websockets import ConnectionClosed, Subprotocol
from websockets.sync.client import connect

from graphmem.core.config import Settings
from graphmem.db.database import Database
from tests.support.graph import episode_contents
from tests.support.http import HTTP
from tests.support.server import serving


async def test_healthz_and_readyz(client: httpx.AsyncClient) -> None:
    assert (await client.get("/healthz")).json() == {"status": "ok"}
    ready = await client.get("/readyz")
    assert ready.status_code == 200 and ready.json()["status"] == "ready"


async def test_unauthenticated_request_is_refused(client: httpx.AsyncClient) -> None:
    response = await client.post("/graphql", json={"query": "{ __typename }"})
    assert response.status_code == 401
    assert response.json()["errors"][0]["extensions"]["code"] == "UNAUTHENTICATED"


async def test_unknown_key_is_refused(client: httpx.AsyncClient) -> None:
    response = await client.post("/graphql", json={"query": "{ __typename }"},
                                 headers={"Authorization": "Bearer gm_nope_nope"})
    assert response.status_code == 401


async def test_oversized_body_is_refused(client: httpx.AsyncClient, settings: Settings,
                                         admin_token: str) -> None:
    huge = "x" * (settings.max_body_bytes + 1)
    response = await client.post("/graphql", content=huge,
                                 headers={"Authorization": f"Bearer {admin_token}",
                                          "Content-Type": "application/json"})
    assert response.status_code == 413



async def test_a_body_of_exactly_the_cap_is_served(client: httpx.AsyncClient,
                                                   settings: Settings, admin_token: str) -> None:
    """The cap is the largest body served: at it GraphQL runs, a byte past it is 413."""
    def body(size: int) -> bytes:
        head, tail = b'{"query": "{ __typename }", "extensions": {"pad": "', b'"}}'
        return head + b"x" * (size - len(head) - len(tail)) + tail

    headers = {"Authorization": f"Bearer {admin_token}", "Content-Type": "application/json"}
    exact = await client.post("/graphql", content=body(settings.max_body_bytes), headers=headers)
    assert exact.status_code == 200 and exact.json()["data"] == {"__typename": "Query"}
    over = await client.post("/graphql", content=body(settings.max_body_bytes + 1),
                             headers=headers)
    assert over.status_code == 413

async def test_graphiql_page_is_served(client: httpx.AsyncClient) -> None:
    response = await client.get("/graphql", headers={"Accept": "text/html"})
    assert response.status_code == 200 and "graphiql" in response.text.lower()


async def test_readyz_names_the_unreachable_uri_never_the_password() -> None:
    import asyncio

    from pydantic import SecretStr

    from graphmem.app import create_app

    unreachable = Settings.model_construct(
        **{**Settings().model_dump(), "neo4j_uri": "bolt://127.0.0.1:1",
           "neo4j_password": SecretStr("s3cret-never-shown"), "neo4j_connect_timeout_s": 0.5})
    app = create_app(unreachable)
    async with app.router.lifespan_context(app):
        await asyncio.sleep(1.5)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
            response = await http.get("/readyz")
            refused = await http.post("/graphql", json={"query": "{ __typename }"})
    assert response.status_code == 503
    assert "bolt://127.0.0.1:1" in response.json()["reason"]
    assert "s3cret-never-shown" not in response.text
    # Not ready: refused before its key is looked up, so it never reaches Neo4j.
    assert refused.status_code == 503
    assert refused.json()["errors"][0]["extensions"]["code"] == "NOT_READY"
    assert "s3cret-never-shown" not in refused.text


async def test_cross_origin_requests_get_no_cors_grant(client: httpx.AsyncClient,
                                                       admin_token: str) -> None:
    """CORS is off: a browser page elsewhere cannot read answers with a user's key."""
    origin = {"Origin": "https://evil.example"}
    preflight = await client.options("/graphql", headers={
        **origin, "Access-Control-Request-Method": "POST"})
    assert "access-control-allow-origin" not in preflight.headers
    answer = await client.post("/graphql", json={"query": "{ __typename }"},
                               headers={**origin, "Authorization": f"Bearer {admin_token}"})
    assert "access-control-allow-origin" not in answer.headers


async def test_introspection_is_a_setting(settings: Settings, admin_token: str) -> None:
    from graphmem.app import create_app

    query = {"query": "{ __schema { queryType { name } } }"}
    for enabled in (True, False):
        app = create_app(Settings(**{**settings.model_dump(),
                                     "introspection": enabled, "workers": 0}))
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
                while not app.state.runtime.ready:
                    await asyncio.sleep(0.05)
                body = (await http.post("/graphql", json=query, headers={
                    "Authorization": f"Bearer {admin_token}"})).json()
        assert ("errors" not in body) is enabled, body


async def test_unreadable_bodies_are_a_typed_400(client: httpx.AsyncClient, admin_token: str,
                                                 db: Database, ns: str) -> None:
    """Metadata nested ~980 levels deep, or bytes that are not UTF-8, got a plain-text 500
    (issue 16.10); now a typed 400 that wrote nothing."""
    import json

    metadata = '{"a":' * 980 + "{}" + "}" * 980  # written out: json.dumps would recurse too
    record = ('mutation($ns: String!, $eps: [EpisodeInput!]!) { recordEpisodes(namespace: $ns, '
              'episodes: $eps) { created } }')
    deep = json.dumps({"query": record, "variables": {"ns": ns, "eps": [{
        "kind": "USER_MESSAGE", "content": "x", "occurredAt": "2026-01-01T00:00:00Z",
        "metadata": "METADATA"}]}}).replace('"METADATA"', metadata)
    headers = {"Authorization": f"Bearer {admin_token}", "Content-Type": "application/json"}
    for body in (deep.encode(), b'{"query": "{ __typename }", "x": "\xff\xfe"}'):
        answer = await client.post("/graphql", content=body, headers=headers)
        assert answer.status_code == 400
        assert answer.json()["errors"][0]["extensions"]["code"] == "INVALID_INPUT"
    left, _, _ = await db.driver.execute_query("MATCH (n {ns: $ns}) RETURN count(n) AS n",
                                               {"ns": ns})
    assert left[0]["n"] == 0


@pytest.mark.hostile("operations")
def test_a_store_refused_at_start_serves_nothing_and_says_why(admin_token: str) -> None:
    """An embedder the store's vector indexes were not built for: the service is not ready,
    and every request gets NOT_READY naming the fix, over HTTP and a WebSocket; none writes."""
    with serving(until="/healthz", GRAPHMEM_EMBEDDER="openai", GRAPHMEM_EMBEDDING_DIMENSION="64",
                 GRAPHMEM_EMBEDDING_BASE_URL="http://127.0.0.1:9/v1",
                 GRAPHMEM_EMBEDDING_API_KEY="unused") as url:
        for _ in range(100):
            ready = HTTP.get(f"{url}/readyz", timeout=5)
            if "reembed" in ready.text:
                break
            time.sleep(0.1)
        assert ready.status_code == 503 and "graphmem reembed" in ready.json()["reason"]
        headers = {"Authorization": f"Bearer {admin_token}"}
        for query in ('mutation { recordEpisodes(namespace: "test/refused", episodes: '
                      '[{content: "hi", kind: USER_MESSAGE}]) { created } }',
                      '{ search(namespace: "test/refused", query: "hi") { hits { kind } } }'):
            answer = HTTP.post(f"{url}/graphql", json={"query": query}, headers=headers,
                                timeout=10)
            assert answer.status_code == 503
            error = answer.json()["errors"][0]
            assert error["extensions"] == {"code": "NOT_READY", "retryable": True}
            assert "graphmem reembed" in error["message"]
        with connect(url.replace("http", "ws") + "/graphql",
                     subprotocols=[Subprotocol("graphql-transport-ws")]) as ws:
            ws.send(json.dumps({"type": "connection_init",
                                "payload": {"Authorization": f"Bearer {admin_token}"}}))
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        assert "not ready" in closed.value.rcvd.reason


@pytest.mark.parametrize(("content", "metadata"), [
    ('"a\\uD800b"', "{}"),  # an escape in upper case is the same lone surrogate
    ('"fine"', '{"\\ud800": 1}'),  # in an object's key, not only in its values
])
async def test_a_lone_surrogate_anywhere_is_a_typed_400_that_writes_nothing(
        client: httpx.AsyncClient, admin_token: str, db: Database, ns: str, content: str,
        metadata: str) -> None:
    record = ('mutation($ns: String!, $eps: [EpisodeInput!]!) { recordEpisodes(namespace: $ns, '
              'episodes: $eps) { created } }')
    body = ('{"query": ' + json.dumps(record) + ', "variables": {"ns": ' + json.dumps(ns)
            + ', "eps": [{"externalId": "s", "kind": "USER_MESSAGE", "occurredAt": '
            '"2026-05-01T10:00:00Z", "content": ' + content + ', "metadata": ' + metadata
            + '}]}}')
    answer = await client.post("/graphql", content=body.encode(), headers={
        "Authorization": f"Bearer {admin_token}", "Content-Type": "application/json"})
    assert answer.status_code == 400, answer.text
    assert answer.json()["errors"][0]["extensions"]["code"] == "INVALID_INPUT"
    assert await episode_contents(db, ns) == []
