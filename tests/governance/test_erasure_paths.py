"""Every path of the erasure promise ("once the receipt is written, no query, index or API path
returns the erased content"): each scope (episodes, a session, a subject, a namespace) against
each place content lives — the graph (every property of every node and relationship of the
namespace), the fulltext and vector indexes, summaries, recall, the neighbours' copies, an
export — and each transport that serves it: GraphQL over HTTP, a WebSocket opened before the
erasure (a real `graphmem serve`) and the client's MCP server over stdio, both re-reading
after it. The reads are made first with the words there (so none of them is blind), and what
the erasure must leave is read again after it. tests/promises.toml lists these cells.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import mcp_types as types
import pytest
from mcp.client import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from starlette.applications import Starlette

from graphmem.db.database import Database
from graphmem.retrieval.embeddings import WordLlamaEmbedder, embed_all_pending
from tests.support.client import GraphQLClient
from tests.support.documents import ASSERT, RECORD, fact
from tests.support.runtime import embedding_paused
from tests.support.server import serving
from tests.support.sockets import data, operate, socket

GRAPHMEM_MCP = str(Path(sys.executable).with_name("graphmem-mcp"))
NAME, THING = "Quillfeather", "Brightkettle"  # the subject erased; a word only its turn says
QUESTION = f"What does {NAME} whistle like, the {THING}?"
READ = """query($ns: String!, $q: String!, $w: String!) {
  search(namespace: $ns, query: $q) { hits { kind episode { content } fact { text }
    summary { text } entity { name } } }
  vectors: search(namespace: $ns, query: "a parrot whistling like a kettle at dawn") {
    hits { kind episode { content } matches { retriever } } }
  history: search(namespace: $ns, query: $w, includeHistory: true) {
    hits { episode { content } summary { text } } }
  episodes(namespace: $ns, where: {textContains: $w}) { nodes { content } }
  recall(namespace: $ns, query: $q, sessionId: "secret") { pieces { text } }
  summary(namespace: $ns, sessionId: "secret") { text }
  entity(namespace: $ns, name: "parrot") { name factsIn { subject } }
  kept: search(namespace: $ns, query: "green tea") { hits { kind } } }"""
ERASE = {
    "episode": """mutation($ns: String!) { eraseEpisodes(namespace: $ns, ids: ["t1"]) {
        verified } }""",
    "session": """mutation($ns: String!) { closeSession(namespace: $ns, sessionId: "secret") {
        verified } }""",
    "subject": """mutation($ns: String!) { eraseSubject(namespace: $ns, entity: "quillfeather",
        episodes: true) { verified } }""",
    "namespace": """mutation($ns: String!) { eraseNamespace(namespace: $ns, confirm: $ns) {
        verified } }""",
}


@pytest.fixture(scope="module")
def service() -> Iterator[str]:
    with serving() as url:
        yield url


async def _memory(gql: GraphQLClient, db: Database, ns: str) -> None:
    """A secret session (the turn naming the parrot and the Brightkettle, a reply whose
    search copies quote it), a fact about the parrot, a summary of the session citing it, and
    a session that stays; all embedded."""
    turns = [("t1", "secret", f"{NAME}, my parrot, whistles like the {THING} every morning."),
             ("t2", "secret", "Nice, that sounds like a happy bird."),
             ("k1", "kept", "I drink green tea every morning.")]
    await gql.ok(RECORD, ns=ns, eps=[
        {"externalId": ext, "sessionId": sid, "kind": "USER_MESSAGE", "actor": "user",
         "content": text, "occurredAt": f"2026-05-01T09:0{i}:00Z"}
        for i, (ext, sid, text) in enumerate(turns)])
    made = await gql.ok(ASSERT, ns=ns, facts=[
        fact(NAME, "is_a", "parrot", evidence=["t1"]),
        fact("user", "drinks", "green tea", evidence=["k1"])])
    await gql.ok("""mutation($ns: String!, $id: String!) { writeSummary(namespace: $ns,
        summary: {text: "The parrot Quillfeather whistles like the Brightkettle.",
        sessionId: "secret", covers: ["t1", "t2"], cites: [$id]}) { id } }""",
                 ns=ns, id=made["assertFacts"][0]["fact"]["id"])
    await embed_all_pending(db, WordLlamaEmbedder(), 256)


def _erased_words(scope: str) -> list[str]:
    """Erasing the turn alone leaves the fact it evidenced as retracted history (the README
    says so: erase the subject to remove it); every other scope takes the name too."""
    return [THING] if scope == "episode" else [THING, NAME]


def _left(answer: Any, words: list[str]) -> list[str]:
    text = json.dumps(answer).lower()
    return [w for w in words if w.lower() in text]


async def _graph(db: Database, ns: str, words: list[str]) -> list[str]:
    """Every node of the namespace, and every relationship leaving one, holding a word in
    any property (content, context, window, quotes on evidence links, names...)."""
    rows, _, _ = await db.driver.execute_query(
        "MATCH (n) WHERE n.ns = $ns "
        "RETURN labels(n) AS labels, n {.*, embedding: null} AS props, "
        "[(n)-[r]->() | [type(r), properties(r)]] AS out", {"ns": ns}, database_=db.name)
    return [repr(r["labels"]) for r in rows
            if _left(str(r["props"]) + str(r["out"]), words)]


async def _embeddings(db: Database, ns: str) -> dict[str, Any]:
    rows, _, _ = await db.driver.execute_query(
        "MATCH (e:Episode {ns: $ns}) RETURN e.external_id AS id, e.embedding AS vector",
        {"ns": ns}, database_=db.name)
    return {r["id"]: r["vector"] for r in rows}


async def _export(client: httpx.AsyncClient, token: str, ns: str) -> str:
    answer = await client.get("/export", params={"namespace": ns},
                              headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 200
    return answer.text


@asynccontextmanager
async def _mcp(url: str, key: str, ns: str) -> AsyncIterator[ClientSession]:
    env = {"GRAPHMEM_URL": url, "GRAPHMEM_KEY": key, "GRAPHMEM_NAMESPACE": ns}
    if "PYTHONPATH" in os.environ:
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    with open(os.devnull, "w") as quiet:
        async with stdio_client(StdioServerParameters(command=GRAPHMEM_MCP, env=env),
                                errlog=quiet) as (read, write), \
                ClientSession(read, write) as session:
            await session.initialize()
            yield session


async def _mcp_reads(session: ClientSession) -> str:
    """What the MCP tools answer, less the words each was asked with (a tool may echo them:
    "No facts about Quillfeather")."""
    texts = []
    for name, arguments in (("search", {"query": QUESTION}),
                            ("search", {"query": THING, "kinds": ["episode", "summary"]}),
                            ("recall", {"query": QUESTION, "session_id": "secret"}),
                            ("about", {"entity": NAME}),
                            ("summary", {"session_id": "secret"})):
        result = await session.call_tool(name, arguments)
        for item in result.content:
            assert isinstance(item, types.TextContent)
            text = item.text
            for asked in arguments.values():
                text = text.replace(str(asked), "")
            texts.append(text)
    return "\n".join(texts)


@pytest.mark.parametrize("scope", list(ERASE))
async def test_erased_words_are_gone_from_every_place_and_transport(
        scope: str, gql: GraphQLClient, client: httpx.AsyncClient, db: Database, app: Starlette,
        service: str, admin_token: str, ns: str) -> None:
    await _memory(gql, db, ns)
    words = _erased_words(scope)
    if scope == "session":
        await gql.ok("""mutation($ns: String!) { markSessionEphemeral(namespace: $ns,
            sessionId: "secret", idleMinutes: 60) { idleMinutes } }""", ns=ns)
    variables = {"q": QUESTION, "w": THING}
    before = await gql.ok(READ, ns=ns, **variables)
    assert _left(before["search"], words) == words and _left(before["recall"], words) == words
    assert THING in json.dumps(before["episodes"]) and THING in json.dumps(before["summary"])
    assert any(m["retriever"] == "vector" and THING in h["episode"]["content"]
               for h in before["vectors"]["hits"] if h["episode"] for m in h["matches"])
    assert await _graph(db, ns, words) and THING in await _export(client, admin_token, ns)

    async with socket(service, admin_token) as ws, _mcp(service, admin_token, ns) as mcp:
        assert _left(data(await operate(ws, "before", READ, ns=ns, **variables)),
                     words) == words
        assert _left(await _mcp_reads(mcp), words) == words

        async with embedding_paused(app):
            embedded = await _embeddings(db, ns)
            receipt = await gql.ok(ERASE[scope], ns=ns)
            assert [r["verified"] for r in receipt.values()] == [True], receipt
            # A neighbour's vector, made with the erased turn as its context, is gone
            # (dropped; or made again from what remains by a worker of the shared database).
            kept = {ext for ext, vector in (await _embeddings(db, ns)).items()
                    if vector is not None and vector == embedded.get(ext)}
            assert "t2" not in kept, kept

        assert _left(data(await operate(ws, "after", READ, ns=ns, **variables)), words) == []
        assert _left(await _mcp_reads(mcp), [*words, "parrot"]) == []  # nor what it was
    await embed_all_pending(db, WordLlamaEmbedder(), 256)  # the neighbours embedded anew
    after = await gql.ok(READ, ns=ns, **variables)
    assert _left(after, words) == [], after
    assert await _graph(db, ns, words) == []
    assert _left(await _export(client, admin_token, ns), words) == []
    if scope != "namespace":  # the reads still find what was not erased
        assert after["kept"]["hits"], after
        assert "green tea" in await _export(client, admin_token, ns)


@pytest.mark.parametrize("scope", ["episode", "session"])
async def test_a_speaker_whose_every_turn_is_erased_is_named_nowhere(
        scope: str, gql: GraphQLClient, client: httpx.AsyncClient, db: Database,
        admin_token: str, ns: str) -> None:
    await gql.ok(RECORD, ns=ns, eps=[
        {"externalId": "t1", "sessionId": "secret", "kind": "USER_MESSAGE",
         "actor": "Marguerite", "content": "I sail on Thursdays",
         "occurredAt": "2026-05-01T09:00:00Z"},
        {"externalId": "k1", "sessionId": "kept", "kind": "USER_MESSAGE", "actor": "user",
         "content": "I drink green tea", "occurredAt": "2026-05-01T09:01:00Z"}])
    ask = """query($ns: String!) { search(namespace: $ns,
        query: "what did Marguerite say about sailing") { actors hits { kind } } }"""
    assert (await gql.ok(ask, ns=ns))["search"]["actors"] == ["Marguerite"]
    if scope == "session":
        await gql.ok("""mutation($ns: String!) { markSessionEphemeral(namespace: $ns,
            sessionId: "secret", idleMinutes: 60) { idleMinutes } }""", ns=ns)
        await gql.ok(ERASE["session"], ns=ns)
    else:
        await gql.ok(ERASE["episode"], ns=ns)
    assert (await gql.ok(ask, ns=ns))["search"]["actors"] == []
    assert await _graph(db, ns, ["Marguerite"]) == []
    assert "marguerite" not in (await _export(client, admin_token, ns)).lower()


async def test_a_speaker_stays_while_a_turn_of_theirs_is_left(gql: GraphQLClient,
                                                              ns: str) -> None:
    """Under any of their names: "MARGUERITE" and "Marguerite" are one speaker."""
    await gql.ok(RECORD, ns=ns, eps=[
        {"externalId": "t1", "sessionId": "a", "kind": "USER_MESSAGE", "actor": "Marguerite",
         "content": "I sail on Thursdays", "occurredAt": "2026-05-01T09:00:00Z"},
        {"externalId": "t2", "sessionId": "b", "kind": "USER_MESSAGE", "actor": "MARGUERITE",
         "content": "I row on Sundays", "occurredAt": "2026-05-02T09:00:00Z"}])
    ask = """query($ns: String!) { search(namespace: $ns,
        query: "what did marguerite say about sailing") { actors } }"""
    erase = """mutation($ns: String!, $id: String!) { eraseEpisodes(namespace: $ns,
        ids: [$id]) { counts { kind count } } }"""
    first = (await gql.ok(erase, ns=ns, id="t1"))["eraseEpisodes"]["counts"]
    assert "speakers" not in {c["kind"] for c in first}
    named = (await gql.ok(ask, ns=ns))["search"]["actors"]
    assert [name.casefold() for name in named] == ["marguerite"]
    last = (await gql.ok(erase, ns=ns, id="t2"))["eraseEpisodes"]["counts"]
    assert {"kind": "speakers", "count": 1} in last
    assert (await gql.ok(ask, ns=ns))["search"]["actors"] == []
