"""Moving from Mem0: its `get_all` output (tests/portability/samples, the open-source
library's shape) imports as observation episodes, one user's at a time, again without change,
and a malformed memory is refused by its position."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from graphmem.core.errors import InvalidInput
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database
from graphmem.portability import mem0
from graphmem.portability.importing import import_lines
from tests.support.client import GraphQLClient
from tests.support.graph import namespace_contents

SAMPLE = json.loads((Path(__file__).parent / "samples" / "mem0_get_all.json").read_text())
EPISODES = """query($ns: String!) { episodes(namespace: $ns, first: 20) { nodes {
  externalId content kind actor sessionId seq occurredAt metadata } } }"""


def lines(data: Any, ns: str, user: str | None = None) -> list[str]:
    return [json.dumps(r) for r in mem0.records(data, Namespace(ns), user)]


async def test_a_users_memories_become_episodes_with_their_mem0_fields(
        db: Database, gql: GraphQLClient, ns: str) -> None:
    result = await import_lines(db, lines(SAMPLE, ns, "alice"))
    assert result.namespace == ns and result.relationships == 3
    nodes = (await gql.ok(EPISODES, ns=ns))["episodes"]["nodes"]
    assert [(n["content"], n["sessionId"], n["seq"], n["actor"]) for n in nodes] == [
        ("Is a vegetarian and allergic to nuts", "trip-planning", 1, "mem0"),
        ("Planning a trip to Japan next spring", "trip-planning", 2, "travel-agent"),
        ("Prefers window seats on long flights", "mem0", 1, "mem0")]
    first = nodes[0]
    assert first["kind"] == "OBSERVATION"
    assert first["occurredAt"] == "2024-07-20T08:41:37.187925+00:00"
    assert first["externalId"] == "mem0:892db2ae-06d9-49e5-8b3e-585ef9b85b8e"
    assert first["metadata"]["mem0"] == {
        "id": "892db2ae-06d9-49e5-8b3e-585ef9b85b8e", "hash": "8c3ecac1a4e9b7f5d7a2c0f6d2c1a6e4",
        "metadata": {"food": "preferences"}, "created_at": "2024-07-20T01:41:37.187925-07:00",
        "user_id": "alice", "run_id": "trip-planning"}
    assert "nurse" not in json.dumps(nodes)  # bob's stays out
    found = await gql.ok("""query($ns: String!) { search(namespace: $ns, query: "nut allergy",
        kinds: [EPISODE]) { hits { episode { content } } } }""", ns=ns)
    assert found["search"]["hits"][0]["episode"]["content"].startswith("Is a vegetarian")


async def test_importing_the_same_memories_again_changes_nothing(db: Database, ns: str) -> None:
    await import_lines(db, lines(SAMPLE, ns))
    once = await namespace_contents(db, ns)
    await import_lines(db, lines(SAMPLE, ns))
    assert await namespace_contents(db, ns) == once and len(once) == 4 + 2 + 2  # + sessions, actors


@pytest.mark.parametrize(("data", "says"), [
    ({"results": [{"id": "a", "memory": "x", "created_at": "2024-01-01T00:00:00Z"},
                  {"id": "b", "memory": ""}]}, "memory 1: needs a string id and a non-empty"),
    ([{"id": "a", "memory": "x", "created_at": "yesterday"}], "memory 0: created_at"),
    ([{"id": "a", "memory": "x", "created_at": "2024-01-01T00:00:00Z"},
      {"id": "a", "memory": "y", "created_at": "2024-01-01T00:00:00Z"}], "memory 1: its id"),
    ({"memories": []}, "a Mem0 export is a list"),
])
def test_a_malformed_export_is_refused_by_position(data: Any, says: str) -> None:
    with pytest.raises(InvalidInput, match=says):
        lines(data, "x/y")
