"""One request must not stop the service or build an enormous answer (issue 16.1, 16.2):
query cost is estimated before validation, and the answer's size is capped."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from graphql import build_schema as graphql_build_schema
from graphql import parse

from graphmem.api.schema import build_schema
from graphmem.api.server.extensions.cost import estimate
from graphmem.core.config import Settings
from tests.support.client import GraphQLClient
from tests.support.documents import ASSERT, fact, said

pytestmark = pytest.mark.hostile("cost")

RECORD = """
mutation($ns: String!, $eps: [EpisodeInput!]!) {
  recordEpisodes(namespace: $ns, episodes: $eps) { episodes { id } }
}"""


def fragment_bomb(ns: str, depth: int) -> str:
    fragments = ["fragment F0 on Episode { id }"] + [
        f"fragment F{i} on Episode {{ ...F{i - 1} ...F{i - 1} }}" for i in range(1, depth + 1)]
    return "\n".join(fragments) + f'\n{{ episodes(namespace: "{ns}", first: 1) ' \
                                  f"{{ nodes {{ ...F{depth} }} }} }}"


def nested(ns: str, levels: int) -> str:
    inner = "id"
    for level in range(levels):
        inner = f"derivedFacts {{ id evidence {{ {inner} }} }}" if level % 2 == 0 else inner
    return f'{{ episodes(namespace: "{ns}", first: 1) {{ nodes {{ {inner} }} }} }}'


def code(body: dict[str, Any]) -> str:
    return str(body["errors"][0]["extensions"]["code"])


async def test_a_fragment_bomb_is_refused_without_being_walked(gql: GraphQLClient,
                                                              ns: str) -> None:
    """~900 characters, inside the token and alias limits: it froze the event loop."""
    bomb = fragment_bomb(ns, 40)
    assert len(bomb) < 2_000
    body = await asyncio.wait_for(gql(bomb), timeout=60)  # a hang fails, it does not block
    assert code(body) == "QUERY_TOO_COSTLY" and body["data"] is None
    cycle = 'fragment A on Episode { ...B } fragment B on Episode { ...A } ' \
            f'{{ episodes(namespace: "{ns}", first: 1) {{ nodes {{ ...A }} }} }}'
    assert code(await asyncio.wait_for(gql(cycle), timeout=60)) in (
        "QUERY_TOO_COSTLY", "GRAPHQL_VALIDATION")
    small = await gql(fragment_bomb(ns, 3))  # 8 ids: an ordinary use of fragments
    assert "errors" not in small, small


async def test_nested_lists_are_costed_before_they_run(gql: GraphQLClient, ns: str) -> None:
    await gql.ok(RECORD, ns=ns, eps=[said(f"m{i}", f"2026-05-0{i + 1}T09:00:00Z",
                                          f"note {i}") for i in range(8)])
    await gql.ok(ASSERT, ns=ns, facts=[
        fact("user", "likes", f"thing {j}", evidence=[f"m{i}" for i in range(8)])
        for j in range(8)])
    # Five nested lists under one episode: 6 s and 13 MB on this graph before the limit.
    assert code(await gql(
        f'{{ episodes(namespace: "{ns}", first: 1) {{ nodes {{ derivedFacts {{ evidence '
        f'{{ derivedFacts {{ evidence {{ derivedFacts {{ id }} }} }} }} }} }} }} }}')) \
        == "QUERY_TOO_COSTLY"
    deep = await gql(nested(ns, 7))
    assert code(deep) == "QUERY_TOO_COSTLY"
    assert "values" in deep["errors"][0]["message"]
    shallow = await gql(nested(ns, 3))
    assert "errors" not in shallow, shallow
    pages = await gql(f'{{ a: episodes(namespace: "{ns}", first: 200) {{ nodes {{ content }} }}'
                      f' b: facts(namespace: "{ns}", first: 200) {{ nodes {{ text }} }} }}')
    assert "errors" not in pages, pages


def test_the_estimate_follows_pages_and_lists() -> None:
    schema = build_schema(Settings.model_construct(max_page=200))._schema
    one = parse('{ episodes(namespace: "a", first: 5) { nodes { id content } } }')
    assert estimate(schema, one, {}, 200) == 5 * (1 + 1 + 2)  # connection, nodes, two fields
    by_variable = parse('query($n: Int!) { episodes(namespace: "a", first: $n) '
                        "{ nodes { id } } }")
    assert estimate(schema, by_variable, {"n": 50}, 200) == 50 * (1 + 2)
    listed = parse('{ episodes(namespace: "a", first: 1) { nodes { derivedFacts { id } } } }')
    assert estimate(schema, listed, {}, 200) == 1 * (1 + 1 + 10 * 2)


def test_a_size_argument_without_a_default_counts_a_page() -> None:
    """A `first`/`limit` not given and with no default of its own counts the service's page
    (graphmem's all have defaults: this is the estimate's rule for any schema)."""
    schema = graphql_build_schema("type Query { items(first: Int): [Item!]! } "
                                  "type Item { id: ID }")
    assert estimate(schema, parse("{ items { id } }"), {}, 200) == 200 * (1 + 1)
    assert estimate(schema, parse("{ items(first: 3) { id } }"), {}, 200) == 3 * (1 + 1)
    given = parse("query($n: Int) { items(first: $n) { id } }")
    assert estimate(schema, given, {"n": 7}, 200) == 7 * (1 + 1)
    assert estimate(schema, given, {}, 200) == 200 * (1 + 1)  # not given: a page


async def test_a_query_costing_exactly_the_limit_runs() -> None:
    """Over the limit is refused; at it, the query runs (here it fails further on, without a
    request's context, which is not this check's business)."""
    limited = build_schema(Settings.model_construct(**{
        **Settings().model_dump(), "max_page": 200, "max_query_cost": 20}))
    query = '{ episodes(namespace: "a", first: 5) { nodes { id content } } }'  # 5 * (1+1+2)

    def refused(answer: Any) -> bool:
        return any("could return too much" in e.message for e in answer.errors or [])

    assert not refused(await limited.execute(query))
    assert refused(await limited.execute(query.replace("first: 5", "first: 6")))


async def test_an_answer_over_the_size_cap_is_a_typed_error(settings: Settings,
                                                           admin_token: str, ns: str) -> None:
    from graphmem.app import create_app

    app = create_app(Settings(**{**settings.model_dump(),
                                 "max_response_bytes": 50_000, "workers": 0}))
    async with app.router.lifespan_context(app):
        while not app.state.runtime.ready:
            await asyncio.sleep(0.05)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t", headers={
                "Authorization": f"Bearer {admin_token}"}) as http:
            big = "x" * 20_000
            await http.post("/graphql", json={"query": RECORD, "variables": {"ns": ns, "eps": [
                said(f"d{i}", "2026-05-01T09:00:00Z", f"{big} {i}") for i in range(5)]}})
            aliases = " ".join(f'a{i}: episodes(namespace: "{ns}", first: 5) '
                               "{ nodes { content } }" for i in range(3))
            body = (await http.post("/graphql", json={"query": f"{{ {aliases} }}"})).json()
            assert code(body) == "QUERY_TOO_COSTLY" and body["data"] is None
            one = (await http.post("/graphql", json={
                "query": f'{{ episodes(namespace: "{ns}", first: 1) {{ nodes {{ id }} }} }}'}
            )).json()
            assert "errors" not in one


PLAIN = ('{ episodes(namespace: "a", first: 5) { nodes { id derivedFacts { id evidence { id } } '
         '} } }')


@pytest.mark.parametrize("form", [
    # an inline fragment without a type condition keeps its parent's type (and its lists)
    '{ episodes(namespace: "a", first: 5) { ... { nodes { ... { id derivedFacts { id ... { '
    'evidence { id } } } } } } } }',
    '{ episodes(namespace: "a", first: 5) { ... on EpisodeConnection { nodes { ... on Episode '
    '{ id derivedFacts { id evidence { id } } } } } } }',
    # fragments spread in fragments spread in fragments
    'fragment E on Episode { id ...F } fragment F on Episode { derivedFacts { ...G } } '
    'fragment G on Fact { id evidence { ...H } } fragment H on Episode { id } '
    '{ episodes(namespace: "a", first: 5) { nodes { ...E } } }',
    # aliases name the answer's keys, not other fields
    '{ mine: episodes(namespace: "a", first: 5) { n: nodes { i: id d: derivedFacts { id '
    'e: evidence { id } } } } }',
    # directives: what they keep costs as written, what they leave out costs nothing
    '{ episodes(namespace: "a", first: 5) { nodes { id derivedFacts @include(if: true) { id '
    'evidence { id } } content @skip(if: true) } } }',
    'query($yes: Boolean!, $no: Boolean!) { episodes(namespace: "a", first: 5) { nodes { id '
    'derivedFacts @skip(if: $no) { id evidence { id } } content @include(if: $no) '
    'metadata @skip(if: $yes) } } }',
    'fragment C on Episode { content } { episodes(namespace: "a", first: 5) { nodes { id '
    'derivedFacts { id evidence { id } } ...C @skip(if: true) ... @include(if: false) { '
    'metadata } } } }',
])
def test_every_syntax_form_costs_what_the_plain_query_does(form: str) -> None:
    schema = build_schema(Settings.model_construct(max_page=200))._schema
    plain = estimate(schema, parse(PLAIN), {}, 200)
    assert plain == 5 * (1 + 1 + 1 + 10 * (1 + 1 + 10 * 2))
    assert estimate(schema, parse(form), {"yes": True, "no": False}, 200) == plain


async def test_a_costly_query_is_refused_in_every_syntax_form(gql: GraphQLClient,
                                                              ns: str) -> None:
    """The service refuses the same query however it is spelled: an untyped inline fragment,
    a fragment inside a fragment, an alias."""
    inner = "derivedFacts { evidence { derivedFacts { evidence { derivedFacts { id } } } } }"
    forms = [f'{{ episodes(namespace: "{ns}", first: 1) {{ nodes {{ {inner} }} }} }}',
             f'{{ episodes(namespace: "{ns}", first: 1) {{ ... {{ nodes {{ ... {{ {inner} }} }}'
             ' } } }',
             f'fragment A on Episode {{ ...B }} fragment B on Episode {{ {inner} }} '
             f'{{ episodes(namespace: "{ns}", first: 1) {{ nodes {{ ...A }} }} }}',
             f'{{ e: episodes(namespace: "{ns}", first: 1) {{ n: nodes {{ {inner} }} }} }}']
    for form in forms:
        assert code(await gql(form)) == "QUERY_TOO_COSTLY", form
    left_out = inner.replace("derivedFacts", "derivedFacts @skip(if: true)", 1)
    skipped = await gql(f'{{ episodes(namespace: "{ns}", first: 1) {{ nodes {{ id {left_out} '
                        '} } }')
    assert "errors" not in skipped, skipped  # what @skip leaves out costs nothing
