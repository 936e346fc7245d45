"""Arguments an outsider shapes by hand, with a key granted only its own namespace: Lucene
syntax in `search(query:)`, forged `after` cursors, `first`, `limit` and `tokenBudget` at
their extremes. Each is answered (or refused with a typed error), quickly, and nothing of the
neighbouring namespace, which holds the words asked for, ever comes back."""

from __future__ import annotations

import base64
import json
import time
import uuid
from collections.abc import AsyncIterator
from string import ascii_lowercase
from typing import Any

import httpx
import pytest

from graphmem.db.database import Database
from graphmem.security.auth import create_key
from tests.support.client import GraphQLClient
from tests.support.documents import ASSERT, RECORD, ep, fact
from tests.support.graph import delete_namespace, namespace_contents

pytestmark = pytest.mark.hostile("arguments")

SEARCH = """query($ns: String!, $q: String!, $limit: Int!, $kinds: [SearchKind!]) {
  search(namespace: $ns, query: $q, limit: $limit, kinds: $kinds) {
    hits { kind episode { content } fact { text } summary { text } entity { name } } } }"""
EPISODES = """query($ns: String!, $first: Int!, $after: String) {
  episodes(namespace: $ns, first: $first, after: $after) {
    edges { cursor node { content } } pageInfo { endCursor } } }"""
RECALL = """query($ns: String!, $q: String!, $budget: Int!) {
  recall(namespace: $ns, query: $q, tokenBudget: $budget) { tokensUsed pieces { text } } }"""
SECRET = "zebra"  # only the other namespace says it
MANY_WORDS = " ".join(a + b for a in ascii_lowercase for b in ascii_lowercase)[:999]


class Tenants:
    def __init__(self, own: str, other: str, key: GraphQLClient) -> None:
        self.own, self.other, self.key = own, other, key


@pytest.fixture
async def tenants(client: httpx.AsyncClient, db: Database, gql: GraphQLClient,
                  ) -> AsyncIterator[Tenants]:
    own, other = f"atk/{uuid.uuid4().hex[:8]}-a", f"atk/{uuid.uuid4().hex[:8]}-b"
    await gql.ok(RECORD, ns=own, eps=[ep(f"m{i}", i, f"I like apples, number {i}")
                                      for i in range(5)])
    await gql.ok(RECORD, ns=other, eps=[ep(f"m{i}", i, f"my {SECRET} lives in Porto, {i}")
                                        for i in range(5)])
    await gql.ok(ASSERT, ns=other, facts=[fact("Bob", "owns", f"a {SECRET}")])
    key = await create_key(db, "hostile-inputs", grants=[own], admin=False)
    yield Tenants(own, other, GraphQLClient(client, key))
    await delete_namespace(db, own)
    await delete_namespace(db, other)


def _code(body: dict[str, Any]) -> str | None:
    errors = body.get("errors") or []
    return errors[0]["extensions"]["code"] if errors else None


def _cursor(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode()


LUCENE = ["*:*", "*", "?", "ns_key:*", f"content:{SECRET}", f"{SECRET}~", "zeb*",
          f"/.*{SECRET}.*/", '"unbalanced', "((((", "\\", "AND OR NOT", "+-&&||!(){}[]^\"~*?:/",
          f"apples OR {SECRET}", f"apples) OR (ns_key:* AND {SECRET}", "ns:atk/other",
          "last tuesday", "10000 years ago", "on 31 February 2023"]


@pytest.mark.parametrize("kinds", [None, ["EPISODE"], ["FACT", "ENTITY", "SUMMARY"]])
async def test_lucene_syntax_never_reaches_another_namespace(tenants: Tenants,
                                                             kinds: list[str] | None) -> None:
    for query in [*LUCENE, f"ns:{tenants.other}", f"ns_key:{tenants.other}"]:
        started = time.monotonic()
        body = await tenants.key(SEARCH, ns=tenants.own, q=query, limit=100, kinds=kinds)
        assert time.monotonic() - started < 5, query
        assert _code(body) is None, (query, body)
        assert SECRET not in json.dumps(body) and "Porto" not in json.dumps(body), query


async def test_search_and_recall_arguments_at_their_extremes(tenants: Tenants) -> None:
    cases: list[tuple[str, dict[str, Any], str | None]] = [
        (SEARCH, {"q": "a" * 1_001, "limit": 10}, "INVALID_INPUT"),
        (SEARCH, {"q": " ".join(f"w{i}" for i in range(400)), "limit": 10}, "INVALID_INPUT"),
        (SEARCH, {"q": MANY_WORDS, "limit": 100}, None),  # 333 words: clauses under 1,024
        (SEARCH, {"q": "   ", "limit": 10}, "INVALID_INPUT"),
        (SEARCH, {"q": "apples", "limit": 0}, "INVALID_INPUT"),
        (SEARCH, {"q": "apples", "limit": -1}, "INVALID_INPUT"),
        (SEARCH, {"q": "apples", "limit": 101}, "INVALID_INPUT"),
        (SEARCH, {"q": "apples", "limit": 2**31 - 1}, "QUERY_TOO_COSTLY"),
        (RECALL, {"q": "apples", "budget": 0}, "INVALID_INPUT"),
        (RECALL, {"q": "apples", "budget": -5}, "INVALID_INPUT"),
        (RECALL, {"q": "apples", "budget": 16_001}, "INVALID_INPUT"),
        (RECALL, {"q": "apples", "budget": 2**31 - 1}, "INVALID_INPUT"),
        (RECALL, {"q": "what did I say about apples last tuesday", "budget": 50}, None),
        (RECALL, {"q": f"what about the {SECRET} last week", "budget": 16_000}, None),
        (RECALL, {"q": "last week " * 200, "budget": 1000}, "INVALID_INPUT"),
    ]
    for document, variables, code in cases:
        started = time.monotonic()
        body = await tenants.key(document, ns=tenants.own, **variables)
        assert time.monotonic() - started < 5, variables
        assert _code(body) == code, (variables, body.get("errors"))
        assert SECRET not in json.dumps(body.get("data")), variables


async def test_forged_cursors_are_refused_or_stay_in_their_namespace(
        tenants: Tenants, gql: GraphQLClient, db: Database) -> None:
    theirs = (await gql.ok(EPISODES, ns=tenants.other, first=2))["episodes"]["pageInfo"]
    before = await namespace_contents(db, tenants.other)
    # Another namespace's cursor is only a position: the page after it is the key's own.
    page = await tenants.key(EPISODES, ns=tenants.own, first=50, after=theirs["endCursor"])
    assert _code(page) is None and SECRET not in json.dumps(page)
    assert all("apples" in e["node"]["content"] for e in page["data"]["episodes"]["edges"])
    forged = [
        "garbage", "", "x" * 100_000, "%%%", "\u00e9\u00e9\u00e9",
        _cursor(b"[" * 100_000 + b"]" * 100_000),  # nested past the parser's stack
        _cursor(b"[" * 2_000 + b"]" * 2_000),
        _cursor(b'{"a": 1}'), _cursor(b"[1]"), _cursor(b"[null, null, null]"),
        _cursor(b'["2026-05-01T09:00:00", 1, "x"]'),  # a moment without an offset
        _cursor(b'["2026-05-01T09:00:00+99:00", 1, "x"]'),
        _cursor(b'["9999-12-31T23:59:59-14:00", 1, "x"]'),
        _cursor(b'["2026-05-01T09:00:00+00:00", {"$gt": 1}, "x"]'),
        _cursor(b'["2026-05-01T09:00:00+00:00", 1e400, "x"]'),
        _cursor(b"[1" + b"0" * 5_000 + b", 1, 1]"),
        _cursor(b"\xff\xfe\x00"),
    ]
    for cursor in forged:
        body = await tenants.key(EPISODES, ns=tenants.own, first=5, after=cursor)
        assert _code(body) == "INVALID_INPUT", (cursor[:40], body.get("errors"))
        assert body["errors"][0]["extensions"]["field"] == "after"
    for first, code in ((0, "INVALID_INPUT"), (-1, "INVALID_INPUT"),
                        (10**6, "QUERY_TOO_COSTLY"), (2**31 - 1, "QUERY_TOO_COSTLY")):
        assert _code(await tenants.key(EPISODES, ns=tenants.own, first=first)) == code, first
    assert await namespace_contents(db, tenants.other) == before


async def test_a_mutation_is_never_run_from_a_get(tenants: Tenants, client: httpx.AsyncClient,
                                                  db: Database) -> None:
    """A link (GET) cannot write: mutations over GET are refused before any resolver."""
    before = await namespace_contents(db, tenants.own)
    document = ("mutation { recordEpisodes(namespace: \"" + tenants.own + "\", episodes: "
                '[{externalId: "g", kind: USER_MESSAGE, actor: "u", content: "via GET"}]) '
                "{ created } }")
    answer = await client.get("/graphql", params={"query": document},
                              headers={"Authorization": f"Bearer {tenants.key.token}"})
    assert answer.status_code == 400
    assert await namespace_contents(db, tenants.own) == before


async def test_time_words_at_the_calendar_edges_are_answered(tenants: Tenants) -> None:
    """Time words resolved against a reference time at either end of the calendar fall
    outside it ("10000 years ago" in year 100): no range, never an error."""
    document = """query($ns: String!, $q: String!, $at: DateTime) {
      search(namespace: $ns, query: $q, referenceTime: $at) { hits { kind } }
      recall(namespace: $ns, query: $q, referenceTime: $at) { tokensUsed } }"""
    for query in ("apples 10000 years ago", "apples 999999999 days ago", "apples next year",
                  "apples in 100 years", "apples on 31 December 9899", "apples yesterday",
                  "apples on 1 January 0100", "apples 5 minutes ago"):
        for at in ("0100-01-01T00:00:00Z", "9899-12-31T23:59:59Z", None):
            body = await tenants.key(document, ns=tenants.own, q=query, at=at)
            assert _code(body) is None, (query, at, body.get("errors"))
    inverted = await tenants.key("""query($ns: String!) { search(namespace: $ns,
        query: "apples", from: "2030-01-01T00:00:00Z", to: "2020-01-01T00:00:00Z") {
        hits { kind } } }""", ns=tenants.own)
    assert _code(inverted) is None and inverted["data"]["search"]["hits"] == []


async def test_every_error_of_a_malformed_document_is_typed(tenants: Tenants) -> None:
    """Errors raised while parsing, before any extension ran, came without a code."""
    for document in ("{ x", "query { episodes(", "}}}}",
                     "{ __typename " + "@skip(if: false) " * 5_000 + "}",
                     '{ search(namespace: "a", query: "\\ud800") { hits { kind } } }',
                     "{ nope }", "query Q { __typename } query Q { __typename }"):
        body = await tenants.key(document)
        assert body["errors"], document[:40]
        assert {e["extensions"]["code"] for e in body["errors"]} == {"GRAPHQL_VALIDATION"}, \
            (document[:40], body["errors"])


async def test_requests_refused_before_graphql_runs_are_typed_json(
        tenants: Tenants, client: httpx.AsyncClient) -> None:
    """No query, a query that is not a string, a mutation by GET: plain text before."""
    headers = {"Authorization": f"Bearer {tenants.key.token}"}
    answers = [await client.post("/graphql", json=payload, headers=headers)
               for payload in ({}, {"query": ""}, {"query": 1}, {"query": None},
                               {"query": ["{ __typename }"]})]
    answers.append(await client.get("/graphql", headers=headers, params={
        "query": "mutation { setExtraction(namespace: \"x\") { extract } }"}))
    for answer in answers:
        assert answer.status_code == 400, answer.text
        assert answer.headers["content-type"].startswith("application/json"), answer.text
        assert answer.json()["errors"][0]["extensions"]["code"] == "GRAPHQL_VALIDATION"
