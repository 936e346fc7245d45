"""Entities handled by a key granted one namespace: `mergeEntities` onto itself (by any
spelling) or with a name only another namespace has, `addAlias` taking a name another
entity holds, `traverse` with hostile depths and predicates. Each is refused with a typed
error or stays in the key's namespace; the neighbouring namespace is unchanged."""

from __future__ import annotations

import json
import uuid
from typing import Any

import httpx
import pytest

from graphmem.db.database import Database
from graphmem.security.auth import create_key
from tests.support.client import GraphQLClient
from tests.support.documents import ASSERT, fact
from tests.support.graph import delete_namespace, namespace_contents

pytestmark = pytest.mark.hostile("entities")

MERGE = """mutation($ns: String!, $from: String!, $into: String!) {
  mergeEntities(namespace: $ns, from: $from, into: $into) { entity { name aliases } } }"""
ALIAS = """mutation($ns: String!, $name: String!, $alias: String!) {
  addAlias(namespace: $ns, name: $name, alias: $alias) { name aliases } }"""
TRAVERSE = """query($ns: String!, $from: String!, $depth: Int!, $predicates: [String!]) {
  traverse(namespace: $ns, from: $from, depth: $depth, predicates: $predicates) {
    edges { depth fact { text } } } }"""


async def _memory(db: Database, ns: str) -> list[str]:
    """What ``ns`` holds besides the audit trail (refused calls are audited, by design)."""
    return [node for node in await namespace_contents(db, ns) if "'AuditEvent'" not in node]


async def test_merges_aliases_and_walks_stay_in_their_namespace(
        client: httpx.AsyncClient, db: Database, gql: GraphQLClient, ns: str) -> None:
    other = f"atk/{uuid.uuid4().hex[:8]}"
    try:
        await gql.ok(ASSERT, ns=ns, facts=[fact("Alice", "knows", "Bob"),
                                           fact("Bob", "knows", "Carol")])
        await gql.ok(ASSERT, ns=other, facts=[fact("Alice", "lives_in", "Porto"),
                                              fact("Zed", "knows", "Alice")])
        theirs = await namespace_contents(db, other)
        key = GraphQLClient(client, await create_key(db, "hostile-entities", grants=[ns],
                                                     admin=False))
        own = await _memory(db, ns)
        refused: list[tuple[str, dict[str, Any], str]] = [
            (MERGE, {"from": "Alice", "into": "Alice"}, "INVALID_INPUT"),
            (MERGE, {"from": "Alice", "into": " ALICE "}, "INVALID_INPUT"),
            (MERGE, {"from": "Zed", "into": "Alice"}, "NOT_FOUND"),  # only the other has Zed
            (MERGE, {"from": "Alice", "into": "Zed"}, "NOT_FOUND"),
            (MERGE, {"from": "Bob", "into": "Bob\u200b"}, "NOT_FOUND"),
            (ALIAS, {"name": "Carol", "alias": "Alice"}, "INVALID_INPUT"),  # names another
            (ALIAS, {"name": "Zed", "alias": "Carol"}, "NOT_FOUND"),
            (ALIAS, {"name": "Carol", "alias": "x" * 10_000}, "INVALID_INPUT"),
            (ALIAS, {"name": "Carol", "alias": " "}, "INVALID_INPUT"),
            (TRAVERSE, {"from": "Carol", "depth": 0}, "INVALID_INPUT"),
            (TRAVERSE, {"from": "Carol", "depth": 2**31 - 1}, "INVALID_INPUT"),
            (TRAVERSE, {"from": "Carol", "depth": -1}, "INVALID_INPUT"),
            (TRAVERSE, {"from": "Carol", "depth": 4,
                        "predicates": ["KNOWS]->(x) DETACH DELETE x //"]}, "INVALID_INPUT"),
            (TRAVERSE, {"from": "Carol", "depth": 4, "predicates": ["*"]}, "INVALID_INPUT"),
            (TRAVERSE, {"from": "Carol", "depth": 4, "predicates": ["knows"] * 1_000},
             "INVALID_INPUT"),
            (TRAVERSE, {"from": "Zed", "depth": 4}, "NOT_FOUND"),
        ]
        for document, variables, code in refused:
            body = await key(document, ns=ns, **variables)
            errors = body.get("errors") or [{"extensions": {}}]
            assert errors[0]["extensions"].get("code") == code, (variables, body)
        assert await _memory(db, ns) == own  # refused: nothing written but the audit
        walked = await key.ok(TRAVERSE, ns=ns, **{"from": "Alice", "depth": 4})
        assert "Porto" not in json.dumps(walked) and "Zed" not in json.dumps(walked)
        merged = await key.ok(MERGE, ns=ns, **{"from": "Bob", "into": "Carol"})
        assert merged["mergeEntities"]["entity"]["aliases"] == ["Bob"]
        assert await namespace_contents(db, other) == theirs
    finally:
        await delete_namespace(db, other)
