"""Posting GraphQL the way a client does, for terse assertions."""

from __future__ import annotations

from typing import Any

import httpx


class GraphQLClient:
    """Posts GraphQL with a key and returns (data, errors) for terse assertions."""

    def __init__(self, http: httpx.AsyncClient, token: str | None) -> None:
        self.http, self.token = http, token

    async def __call__(self, query: str, **variables: Any) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        response = await self.http.post("/graphql", json={"query": query, "variables": variables},
                                        headers=headers)
        body: dict[str, Any] = response.json()
        return body

    async def ok(self, query: str, **variables: Any) -> dict[str, Any]:
        body = await self(query, **variables)
        assert not body.get("errors"), body.get("errors")
        data: dict[str, Any] = body["data"]
        return data
