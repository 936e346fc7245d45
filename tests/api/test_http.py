"""The HTTP shell: health, readiness, authentication before GraphQL, size limits."""

from __future__ import annotations

import httpx

from graphmem.config import Settings


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


async def test_graphiql_page_is_served(client: httpx.AsyncClient) -> None:
    response = await client.get("/graphql", headers={"Accept": "text/html"})
    assert response.status_code == 200 and "graphiql" in response.text.lower()
