"""`GET /export` over the real app: an admin key streams a namespace as the export format
(and `graphmem import` would read it), audited; anyone else is refused before any read."""

from __future__ import annotations

import json

import httpx

from graphmem.db.database import Database
from graphmem.security.auth import create_key
from tests.support.client import GraphQLClient
from tests.support.workloads import fill


async def test_an_admin_streams_a_namespace_and_the_export_is_audited(
        client: httpx.AsyncClient, gql: GraphQLClient, admin_token: str, ns: str) -> None:
    await fill(gql, ns)
    async with client.stream("GET", "/export", params={"namespace": ns},
                             headers={"Authorization": f"Bearer {admin_token}"}) as answer:
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("application/x-ndjson")
        records = [json.loads(line) async for line in answer.aiter_lines() if line]
    assert records[0]["namespace"] == ns and records[0]["decrypted"] is False
    assert records[-1]["end"]["nodes"] == sum("node" in r for r in records)
    assert {"Episode", "Fact", "Entity", "Alias", "PredicatePolicy"} <= {
        r["node"] for r in records if "node" in r}
    log = await gql.ok("""query($ns: String!) { auditLog(namespace: $ns, first: 50) {
        nodes { operation outcome } } }""", ns=ns)
    assert {"operation": "export", "outcome": "ok"} in log["auditLog"]["nodes"]


async def test_only_an_admin_key_for_the_namespace_exports(
        client: httpx.AsyncClient, db: Database, ns: str) -> None:
    own = await create_key(db, "exports-own", grants=[ns], admin=False)
    for headers, status, code in (({}, 401, "UNAUTHENTICATED"),
                                  ({"Authorization": f"Bearer {own}"}, 403, "FORBIDDEN")):
        answer = await client.get("/export", params={"namespace": ns}, headers=headers)
        assert answer.status_code == status
        assert answer.json()["errors"][0]["extensions"]["code"] == code
    answer = await client.get("/export", params={"namespace": "../etc"},
                              headers={"Authorization": f"Bearer {own}"})
    assert answer.status_code == 400
