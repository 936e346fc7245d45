"""/metrics and memoryStats over the real app and Neo4j."""

from __future__ import annotations

import secrets

import httpx
import pytest

from tests.support.client import GraphQLClient
from tests.support.documents import ASSERT, FACTS, RECORD, fact, said
from tests.support.workloads import fill


async def test_metrics_name_operations_and_statements_never_content(
        client: httpx.AsyncClient, gql: GraphQLClient, ns: str) -> None:
    await gql.ok(RECORD, ns=ns, eps=[said("m1", "2026-05-01T10:00:00Z", "Zanzibar secret")])
    await gql.ok(ASSERT, ns=ns, facts=[fact("user", "lives_in", "Zanzibar", evidence=["m1"])])
    await gql.ok(FACTS, ns=ns, where={"subject": "user"})
    await gql(FACTS, ns="bad namespace!")
    text = (await client.get("/metrics")).text
    assert 'graphmem_request_seconds_count{operation="query:facts"}' in text
    assert 'graphmem_request_seconds_count{operation="mutation:assertFacts"}' in text
    assert 'graphmem_cypher_seconds_count{statement="facts/page"}' in text
    assert 'graphmem_request_errors_total{code="INVALID_INPUT"}' in text
    assert "Zanzibar" not in text and ns not in text


async def test_memory_stats_count_by_kind(gql: GraphQLClient, ns: str) -> None:
    await fill(gql, ns)
    # Porto, narrowed to May by the move, is history plus a believed revision.
    stats = (await gql.ok("""query($ns: String!) { memoryStats(namespace: $ns) {
        sessions episodes entities believedFacts factVersions summaries staleSummaries
        openConflicts } }""", ns=ns))["memoryStats"]
    assert stats == {"sessions": 1, "episodes": 2, "entities": 5, "believedFacts": 5,
                     "factVersions": 6, "summaries": 0, "staleSummaries": 0,
                     "openConflicts": 1}


def series(text: str) -> set[str]:
    return {line.split(" ")[0] for line in text.splitlines()
            if line.startswith("graphmem_request_seconds_count{")}


@pytest.mark.hostile("metrics")
async def test_what_clients_send_never_makes_a_metric_label(
        client: httpx.AsyncClient, gql: GraphQLClient, ns: str) -> None:
    """Made-up field, fragment and operation names and combinations of real fields, valid
    or not: a handful of labels, all of them the schema's own names."""
    await gql(FACTS, ns=ns)  # query:facts exists before
    before = series((await client.get("/metrics")).text)
    made_up = [f"f{secrets.token_hex(6)}" for _ in range(150)]
    documents = [f"{{ {name} }}" for name in made_up[:50]]
    documents += [f"mutation {{ {name}(x: 1) {{ id }} }}" for name in made_up[50:80]]
    documents += [f"query {name} {{ ...{name} }} fragment {name} on Query {{ __typename }}"
                  for name in made_up[80:110]]
    documents += [f"{{ facts(namespace: \"{ns}\") {{ nodes {{ id }} }} {name} }}"
                  for name in made_up[110:130]]
    documents += [f"{{ {name}: memoryStats(namespace: \"{ns}\") {{ episodes }} "
                  f"facts(namespace: \"{ns}\", {name}: 1) {{ nodes {{ id }} }} }}"
                  for name in made_up[130:]]
    documents += [f"{{ {a}(namespace: \"{ns}\") }}" for a in ("episodes", "entity", "facts")]
    for document in documents:
        await gql(document)
    text = (await client.get("/metrics")).text
    added = series(text) - before
    assert added <= {'graphmem_request_seconds_count{operation="invalid"}',
                     'graphmem_request_seconds_count{operation="query:several"}',
                     'graphmem_request_seconds_count{operation="query:episodes"}',
                     'graphmem_request_seconds_count{operation="query:entity"}'}, added
    assert not any(name in text for name in made_up)
