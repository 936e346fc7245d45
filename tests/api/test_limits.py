"""Request limits (depth, tokens, aliases, batch and page caps) and "bad input writes nothing"
for the mutations not covered elsewhere. Each refusal is typed and the graph is unchanged."""

from __future__ import annotations

import pytest

from graphmem.db.database import Database
from tests.support.client import GraphQLClient
from tests.support.documents import ASSERT, RECORD, ep, fact
from tests.support.graph import graph_size

pytestmark = pytest.mark.hostile("limits")


async def test_deep_queries_are_refused(gql: GraphQLClient, ns: str) -> None:
    nested = "id"
    for _ in range(8):  # well past the default depth of 12
        nested = f"derivedFacts {{ evidence {{ {nested} }} }}"
    body = await gql(f'query($ns: String!) {{ episodes(namespace: $ns, first: 1) '
                     f'{{ nodes {{ {nested} }} }} }}', ns=ns)
    # Refused before the depth check even walks it: its lists multiply past the cost limit.
    assert body["errors"][0]["extensions"]["code"] == "QUERY_TOO_COSTLY"
    assert body.get("data") is None


async def test_huge_and_alias_heavy_queries_are_refused(gql: GraphQLClient) -> None:
    many_tokens = await gql("{ " + "__typename " * 6000 + "}")
    assert "more than 5000 tokens" in many_tokens["errors"][0]["message"]
    aliases = " ".join(f"a{i}: __typename" for i in range(31))
    many_aliases = await gql(f"{{ {aliases} }}")
    assert "aliases found" in many_aliases["errors"][0]["message"]


async def test_batches_and_pages_are_capped(gql: GraphQLClient, db: Database, ns: str) -> None:
    before = await graph_size(db)
    episodes = await gql(RECORD, ns=ns, eps=[ep(f"m{i}", i % 60) for i in range(1001)])
    facts = await gql(ASSERT, ns=ns, facts=[fact("Alice", "likes", f"x{i}") for i in range(1001)])
    empty = await gql(ASSERT, ns=ns, facts=[])
    for body in (episodes, facts, empty):
        assert body["errors"][0]["extensions"]["code"] == "INVALID_INPUT"
    assert await graph_size(db) == before
    page = await gql('query($ns: String!) { facts(namespace: $ns, first: 201) { nodes { id } } }',
                     ns=ns)
    assert page["errors"][0]["extensions"]["field"] == "first"


async def test_refused_alias_writes_nothing(gql: GraphQLClient, db: Database, ns: str) -> None:
    await gql.ok(ASSERT, ns=ns, facts=[fact("Alice", "knows", "Bob")])
    before = await graph_size(db)
    alias = 'mutation($ns: String!, $name: String!, $alias: String!) { ' \
            'addAlias(namespace: $ns, name: $name, alias: $alias) { id } }'
    for name, other, code in (("Alice", "bob", "INVALID_INPUT"),  # names another entity
                              ("Nobody", "x", "NOT_FOUND"), ("Alice", " ", "INVALID_INPUT")):
        body = await gql(alias, ns=ns, name=name, alias=other)
        assert body["errors"][0]["extensions"]["code"] == code, (name, other)
    assert await graph_size(db) == before


async def test_refused_summary_writes_nothing(gql: GraphQLClient, db: Database, ns: str) -> None:
    recorded = await gql.ok(RECORD, ns=ns, eps=[ep("m1", 1)])
    episode_id = recorded["recordEpisodes"]["episodes"][0]["id"]
    before = await graph_size(db)
    write = 'mutation($ns: String!, $s: SummaryInput!) { writeSummary(namespace: $ns, ' \
            'summary: $s) { id } }'
    for summary, code in (({"text": "x", "covers": ["ep_missing"]}, "NOT_FOUND"),
                          ({"text": "x", "covers": [episode_id], "cites": ["fact_x"]}, "NOT_FOUND"),
                          ({"text": "x", "covers": []}, "INVALID_INPUT"),
                          ({"text": "x"}, "GRAPHQL_VALIDATION"),  # covers is required
                          ({"text": "", "covers": []}, "INVALID_INPUT"),
                          ({"text": "x", "covers": [], "level": 0}, "INVALID_INPUT")):
        body = await gql(write, ns=ns, s=summary)
        assert body["errors"][0]["extensions"]["code"] == code, summary
    assert await graph_size(db) == before
