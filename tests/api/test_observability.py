"""/metrics and memoryStats over the real app and Neo4j."""

from __future__ import annotations

import httpx

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
