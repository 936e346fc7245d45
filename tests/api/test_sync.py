"""Federated memory's API on the shared side, in process: a push is held to what a sync may
carry (never a turn) and to the import's checks, and a bad one writes nothing; a pull's
arguments are checked; a key for one namespace pushes into no other. The end-to-end run
(two devices, a shared service) is tests/portability/test_federation.py."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from graphmem.core.namespaces import parse_namespace
from graphmem.db.database import Database
from graphmem.portability import federation
from graphmem.security.auth import create_key
from tests.support.client import GraphQLClient
from tests.support.graph import graph_size

PUSH = """mutation($ns: String!, $device: String!, $lines: [String!]!) {
  pushMemory(namespace: $ns, device: $device, lines: $lines) { sequence changed nodes } }"""
PULL = """query($ns: String!, $after: String, $device: String!) {
  memoryChanges(namespace: $ns, device: $device, after: $after) { lines cursor hasMore } }"""
TURN = {"node": "Episode", "key": "ep_1", "props": {
    "content": "the words of a turn", "kind": "user_message", "session_id": "s1",
    "occurred_at": {"$datetime": "2026-05-01T09:00:00+00:00"}}}
REFERENCE = {"node": "DeviceTurn", "key": "ep_2", "props": {
    "device": "laptop", "said_at": {"$datetime": "2026-05-01T09:00:00+00:00"}}}


def _framed(ns: str, records: list[dict[str, Any]]) -> list[str]:
    return federation.framed(parse_namespace(ns), records)


def _code(body: dict[str, Any]) -> str:
    return str(body["errors"][0]["extensions"]["code"])


async def test_a_turn_is_refused_and_nothing_is_written(gql: GraphQLClient, ns: str,
                                                        db: Database) -> None:
    before = await graph_size(db)
    body = await gql(PUSH, ns=ns, device="laptop", lines=_framed(ns, [REFERENCE, TURN]))
    assert _code(body) == "INVALID_INPUT"
    assert "turns never leave their device" in body["errors"][0]["message"]
    assert "the words" not in json.dumps(body)  # an error names the line, not its content
    assert await graph_size(db) == before


@pytest.mark.parametrize("label", ["ApiKey", "Entity:ApiKey", "Unknown", "Fact` SET n.x = 1 //"])
async def test_a_node_of_a_label_a_push_does_not_carry_is_refused(
        gql: GraphQLClient, ns: str, db: Database, label: str) -> None:
    """Only what a device syncs travels: a key, a label the format does not know, or a
    label that tries to be Cypher is a typed refusal of the whole push, nothing written."""
    before = await graph_size(db)
    stranger = {"node": label, "key": "x_1", "props": {"name": "mallory"}}
    body = await gql(PUSH, ns=ns, device="laptop", lines=_framed(ns, [REFERENCE, stranger]))
    assert _code(body) == "INVALID_INPUT"
    assert "mallory" not in json.dumps(body)
    assert await graph_size(db) == before


async def test_an_altered_push_is_refused(gql: GraphQLClient, ns: str, db: Database) -> None:
    lines = _framed(ns, [REFERENCE])
    lines[1] = lines[1].replace("laptop", "tablet")  # the digest no longer matches
    before = await graph_size(db)
    assert _code(await gql(PUSH, ns=ns, device="laptop", lines=lines)) == "INVALID_INPUT"
    assert await graph_size(db) == before


@pytest.mark.parametrize("device", ["", "a b", "x" * 65, "../etc", "-lead"])
async def test_a_device_name_is_checked(gql: GraphQLClient, ns: str, device: str) -> None:
    assert _code(await gql(PUSH, ns=ns, device=device, lines=_framed(ns, []))) == \
        "INVALID_INPUT"
    assert _code(await gql(PULL, ns=ns, device=device)) == "INVALID_INPUT"


async def test_a_reference_pushed_twice_is_stamped_once_and_pulled_by_others(
        gql: GraphQLClient, ns: str) -> None:
    first = (await gql.ok(PUSH, ns=ns, device="laptop",
                          lines=_framed(ns, [REFERENCE])))["pushMemory"]
    again = (await gql.ok(PUSH, ns=ns, device="laptop",
                          lines=_framed(ns, [REFERENCE])))["pushMemory"]
    assert (first["changed"], again["changed"]) == (1, 0)
    assert again["sequence"] == first["sequence"]
    own = (await gql.ok(PULL, ns=ns, device="laptop"))["memoryChanges"]
    assert len(own["lines"]) == 2  # header and end: its own push is not handed back
    other = (await gql.ok(PULL, ns=ns, device="phone"))["memoryChanges"]
    assert [json.loads(line).get("key") for line in other["lines"][1:-1]] == ["ep_2"]
    after = (await gql.ok(PULL, ns=ns, device="phone", after=other["cursor"]))["memoryChanges"]
    assert len(after["lines"]) == 2 and not after["hasMore"]


async def test_a_cursor_that_is_not_one_is_refused(gql: GraphQLClient, ns: str) -> None:
    assert _code(await gql(PULL, ns=ns, device="phone", after="not-a-cursor")) == \
        "INVALID_INPUT"


async def test_a_key_for_one_namespace_pushes_into_no_other(
        client: httpx.AsyncClient, db: Database, ns: str, other: str) -> None:
    key = GraphQLClient(client, await create_key(db, "sync", [ns], admin=False))
    assert _code(await key(PUSH, ns=other, device="laptop",
                           lines=_framed(other, [REFERENCE]))) == "FORBIDDEN"
    assert _code(await key(PULL, ns=other, device="laptop")) == "FORBIDDEN"
