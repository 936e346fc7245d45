"""A fuzz pass over the real GraphQL app and Neo4j: hostile strings and sizes in every kind
of argument. Whatever comes in: never a 500 or an INTERNAL error, a refused mutation writes
nothing, and a key for one namespace never reads another's data."""

from __future__ import annotations

import json
import uuid
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem.db.database import Database
from graphmem.security.auth import create_key
from tests.support.client import GraphQLClient
from tests.support.graph import delete_namespace, graph_size

pytestmark = pytest.mark.hostile("input")

CASES = 300
# B's external id, session and entity keys, which A's hostile input guesses; B's answers
# would carry the LEAKS, which A never sends (entity keys are case-folded names).
CANARY = "canary-7d1e"
LEAKS = (f"{CANARY}-b", CANARY.upper())
HOSTILE = [
    "", " ", "\x00", "\ud800", "\u202e", "\ufeff", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "a" * 70_000, "9" * 400,
    "' OR 1=1 //", "\" }) MATCH (n) DETACH DELETE n //", "`Entity`) WITH n MATCH (x) RETURN x //",
    "$ns", "{ns: 'other'}", "ns:*", "*", "other/*", "../../etc/passwd", "<script>x</script>",
    "null", "NaN", "-1", "works at", "WORKS_AT", "SUBJECT", "EVIDENCED_BY", "__typename",
    "eyJ4IjoxfQ==", "W10=", "WyIyMDI2Il0=", CANARY, f"{CANARY}-city", f"{CANARY}-aka",
]
text = st.one_of(st.sampled_from(HOSTILE), st.text(max_size=80),
                 st.text(alphabet=st.characters(codec="utf-8"), max_size=20))

RECORD = """mutation($ns: String!, $eps: [EpisodeInput!]!) { recordEpisodes(namespace: $ns,
  episodes: $eps) { created } }"""
OPERATIONS: dict[str, tuple[str, bool]] = {  # name -> (document, writes)
    "record": (RECORD, True),
    "assert": ("""mutation($ns: String!, $a: String!, $b: String!, $c: String!) {
      assertFacts(namespace: $ns, facts: [{subject: $a, predicate: $b, object: $c,
        evidence: [$c]}]) { outcome } }""", True),
    "policy": ("""mutation($ns: String!, $a: String!) { setPredicatePolicy(namespace: $ns,
      predicate: $a, cardinality: ONE, strategy: MANUAL) { predicate } }""", True),
    "redact": ("""mutation($ns: String!, $a: String!, $b: String!) { redactEpisode(
      namespace: $ns, id: $a, reason: $b) { id } }""", True),
    "extract": ("""mutation($ns: String!, $a: String!) { extractFacts(namespace: $ns,
      episodeIds: [$a]) { id } }""", True),
    "summary": ("""mutation($ns: String!, $a: String!, $b: String!) { writeSummary(
      namespace: $ns, summary: {text: $a, covers: [$b]}) { id } }""", True),
    "search": ("""query($ns: String!, $a: String!) { search(namespace: $ns, query: $a) {
      hits { kind episode { content } fact { text object } entity { name aliases } } } }""",
               False),
    "recall": ("""query($ns: String!, $a: String!) { recall(namespace: $ns, query: $a) {
      pieces { text } } }""", False),
    "facts": ("""query($ns: String!, $a: String!, $b: String!, $c: String!) { facts(
      namespace: $ns, where: {subject: $a, predicate: $b}, after: $c) { nodes { text } } }""",
              False),
    "entity": ("""query($ns: String!, $a: String!) { entity(namespace: $ns, name: $a) {
      name aliases factsOut { text object } } }""", False),
    "traverse": ("""query($ns: String!, $a: String!) { traverse(namespace: $ns, from: $a,
      depth: 2) { nodes { name } } }""", False),
    "episodes": ("""query($ns: String!, $a: String!, $c: String!) { episodes(namespace: $ns,
      where: {textContains: $a, sessionId: $a}, after: $c) { nodes { content } } }""", False),
}


def _variables(document: str, ns: str, a: str, b: str, c: str) -> dict[str, Any]:
    found = {"ns": ns, "a": a, "b": b, "c": c}
    if document is RECORD:
        return {"ns": ns, "eps": [{"content": a, "externalId": b or None, "sessionId": c or None,
                                   "actor": a[:50], "kind": "USER_MESSAGE",
                                   "occurredAt": "2026-05-01T10:00:00Z", "metadata": {b: c}}]}
    return {k: v for k, v in found.items() if f"${k}" in document}


@settings(max_examples=CASES, deadline=None, suppress_health_check=list(HealthCheck))
@given(op=st.sampled_from(sorted(OPERATIONS)), a=text, b=text, c=text,
       hostile_ns=st.one_of(st.none(), text))
async def test_hostile_input_never_breaks_or_leaks(client: httpx.AsyncClient, db: Database,
                                                  gql: GraphQLClient, fuzz: tuple[str, str],
                                                  op: str, a: str, b: str, c: str,
                                                  hostile_ns: str | None) -> None:
    ns, token = fuzz
    await _check(client, db, token, op, ns if hostile_ns is None else hostile_ns, a, b, c)


async def test_every_hostile_string_in_every_operation(client: httpx.AsyncClient, db: Database,
                                                      fuzz: tuple[str, str]) -> None:
    """The table hypothesis samples from, walked exhaustively: every operation gets every
    hostile string in each of its arguments."""
    ns, token = fuzz
    for op in sorted(OPERATIONS):
        for hostile in HOSTILE:
            for a, b, c in ((hostile, "x", "x"), ("x", hostile, "x"), ("x", "x", hostile)):
                await _check(client, db, token, op, ns, a, b, c)


async def _check(client: httpx.AsyncClient, db: Database, token: str, op: str, ns: str,
                 a: str, b: str, c: str) -> None:
    document, writes = OPERATIONS[op]
    before = await graph_size(db) if writes else None
    payload = {"query": document, "variables": _variables(document, ns, a, b, c)}
    # ASCII-escaped JSON, so lone surrogates ("\ud800") reach the server as a client may send
    response = await client.post("/graphql", content=json.dumps(payload).encode(),
                                 headers={"Authorization": f"Bearer {token}",
                                          "Content-Type": "application/json"})
    assert response.status_code in (200, 400, 413), (op, a[:40], response.status_code)
    body = response.json()
    codes = [e.get("extensions", {}).get("code") for e in body.get("errors") or []]
    assert "INTERNAL" not in codes, (op, a[:40], b[:40], c[:40], body["errors"])
    leaked = [leak for leak in LEAKS if leak in response.text]
    assert not leaked, (op, a[:40], b[:40], c[:40], leaked)  # B's never reaches A's key
    if writes and body.get("errors"):
        assert await graph_size(db) == before, (op, codes)  # refused: nothing written


async def _fuzz_namespaces(db: Database, gql: GraphQLClient) -> tuple[str, str, str]:
    a, b = f"fuzz/{uuid.uuid4().hex[:8]}", f"fuzz/{uuid.uuid4().hex[:8]}"
    await gql.ok(RECORD, ns=b, eps=[{"content": f"{CANARY}-b lives here", "externalId": CANARY,
                                     "kind": "USER_MESSAGE", "sessionId": CANARY,
                                     "occurredAt": "2026-05-01T10:00:00Z"}])
    name = CANARY.upper()  # B's entities: their keys are what A guesses, their names LEAKS
    await gql.ok("""mutation($ns: String!, $c: String!, $s: String!, $o: String!,
        $v: String!) { assertFacts(namespace: $ns, facts: [
        {subject: $s, predicate: "lives_in", object: $o, evidence: [$c]},
        {subject: $s, predicate: "motto", value: {string: $v}, evidence: [$c]}]) { outcome } }""",
                 ns=b, c=CANARY, s=name, o=f"{name}-CITY", v=f"{name} {CANARY}-b")
    await gql.ok("""mutation($ns: String!, $s: String!, $a: String!) { addAlias(namespace: $ns,
        name: $s, alias: $a) { id } }""", ns=b, s=name, a=f"{name}-AKA")
    seen = await gql.ok("""query($ns: String!, $c: String!) { entity(namespace: $ns, name: $c) {
        name aliases factsOut { text object } } }""", ns=b, c=CANARY)
    entity = seen["entity"]  # B's own key would see every leak the check looks for
    assert (entity["name"], entity["aliases"]) == (name, [f"{name}-AKA"])
    assert sorted(f["object"] for f in entity["factsOut"]) == [f"{name} {CANARY}-b",
                                                               f"{name}-CITY"]
    assert all(f["text"].startswith(name) for f in entity["factsOut"])
    return a, b, await create_key(db, "fuzz", grants=[a], admin=False)





@pytest.fixture
async def fuzz(db: Database, gql: GraphQLClient) -> Any:
    a, b, token = await _fuzz_namespaces(db, gql)
    yield a, token
    await delete_namespace(db, a)
    await delete_namespace(db, b)
