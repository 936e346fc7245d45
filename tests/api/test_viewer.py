"""``viewer`` (who the key is, which namespaces it may read) and ``sessions`` (a namespace's
conversations): what the console signs in with and lists."""

from __future__ import annotations

import uuid

import httpx

from graphmem.db.database import Database
from graphmem.security.auth import create_key
from tests.support.client import GraphQLClient
from tests.support.documents import ASSERT, RECORD, ep, fact
from tests.support.graph import delete_namespace

VIEWER = "{ viewer { name admin grants namespaces } }"


async def test_a_narrow_key_lists_only_its_own_namespaces(
        client: httpx.AsyncClient, db: Database, gql: GraphQLClient) -> None:
    tag = uuid.uuid4().hex[:8]
    mine, also_mine, other = f"v{tag}/alice", f"v{tag}/bob", f"v{tag}x/carol"
    try:
        for ns in (mine, also_mine, other):
            await gql.ok(RECORD, ns=ns, eps=[ep("m1", 1, "hello")])
        await gql.ok(ASSERT, ns=also_mine, facts=[fact("Bob", "likes", "tea")])
        prefix = GraphQLClient(client, await create_key(db, "v-prefix", grants=[f"v{tag}/*"],
                                                        admin=False))
        seen = (await prefix.ok(VIEWER))["viewer"]
        assert seen == {"name": "v-prefix", "admin": False, "grants": [f"v{tag}/*"],
                        "namespaces": [mine, also_mine]}
        exact = GraphQLClient(client, await create_key(db, "v-exact",
                                                       grants=[f"v{tag}/new", mine], admin=False))
        assert (await exact.ok(VIEWER))["viewer"]["namespaces"] == [mine, f"v{tag}/new"]
        admin = (await gql.ok("{ viewer(first: 200) { admin namespaces } }"))["viewer"]
        assert admin["admin"] and {mine, also_mine, other} <= set(admin["namespaces"])
    finally:
        for ns in (mine, also_mine, other):
            await delete_namespace(db, ns)


async def test_viewer_needs_a_key(client: httpx.AsyncClient) -> None:
    answer = await GraphQLClient(client, "gm_nope_nope")(VIEWER)
    assert answer["errors"][0]["extensions"]["code"] == "UNAUTHENTICATED"


async def test_sessions_most_recent_first_with_cursors(gql: GraphQLClient, ns: str) -> None:
    await gql.ok(RECORD, ns=ns, eps=[ep("a1", 1, session="early"), ep("a2", 5, session="early"),
                                     ep("b1", 3, session="late"), ep("b2", 9, session="late"),
                                     ep("c1", 2, session="middle"), ep("n1", 4, session=None)])
    query = """query($ns: String!, $after: String) { sessions(namespace: $ns, first: 2,
        after: $after) { nodes { sessionId episodes firstAt lastAt }
        pageInfo { hasNextPage endCursor } } }"""
    first = (await gql.ok(query, ns=ns))["sessions"]
    assert first["nodes"] == [
        {"sessionId": "late", "episodes": 2, "firstAt": "2026-05-01T09:03:00+00:00",
         "lastAt": "2026-05-01T09:09:00+00:00"},
        {"sessionId": "early", "episodes": 2, "firstAt": "2026-05-01T09:01:00+00:00",
         "lastAt": "2026-05-01T09:05:00+00:00"}]
    assert first["pageInfo"]["hasNextPage"]
    rest = (await gql.ok(query, ns=ns, after=first["pageInfo"]["endCursor"]))["sessions"]
    assert [s["sessionId"] for s in rest["nodes"]] == ["middle"]
    assert not rest["pageInfo"]["hasNextPage"]
