"""Two apps in one process, over the real Neo4j, each with settings of its own: neither sees
the other's encryption keys, archive store, tracing or background process (issue 40: they
were process-wide singletons, and the app made last, or first, set them for both)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from starlette.applications import Starlette

from graphmem.core.config import Settings
from graphmem.db.database import Database
from graphmem.retrieval import background
from graphmem.retrieval.embeddings import WordLlamaEmbedder, embed_all_pending
from tests.support.apps import OwnApp, keyed, new_key, own_app
from tests.support.client import GraphQLClient
from tests.support.collector import otlp_collector
from tests.support.documents import RECORD, said
from tests.support.runtime import embedding_workers

SECRET = "the safe's code is 4-8-15-16"
EPISODES = """query($ns: String!) { episodes(namespace: $ns) { nodes { content } } }"""
ARCHIVE_ALL = """mutation($ns: String!) {
  a: setRetentionPolicy(namespace: $ns, policy: {maxAgeDays: 30, action: ARCHIVE}) { action }
  b: sweepRetention(namespace: $ns) { episodesArchived } }"""


async def _stored(db: Database, ns: str) -> list[str]:
    rows, _, _ = await db.driver.execute_query(
        "MATCH (e:Episode {ns: $ns}) RETURN e.content AS content", {"ns": ns},
        database_=db.name)
    return [r["content"] for r in rows]


def _objects(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


async def _remember(app: OwnApp, ns: str) -> None:
    old = (datetime.now(UTC) - timedelta(days=60)).isoformat()
    await app.gql.ok(RECORD, ns=ns, eps=[said("m1", old, SECRET)])


async def test_two_apps_keep_their_own_keys_and_archive_stores(
        settings: Settings, admin_token: str, app: Starlette, gql: GraphQLClient, db: Database,
        ns: str, other: str, tmp_path: Path) -> None:
    here, there = tmp_path / "archive-a", tmp_path / "archive-b"
    async with own_app(settings, admin_token, app, archive_url=here.as_uri(),
                       **keyed(new_key("a"))) as first, \
            own_app(settings, admin_token, app, archive_url=there.as_uri(),
                    **keyed(new_key("b"))) as second:
        await _remember(first, ns)
        await _remember(second, other)
        # Each sealed under its own key, and reads its own namespace in plaintext…
        assert [v[:8] for v in await _stored(db, ns)] == ["enc:v1:a"]
        assert [v[:8] for v in await _stored(db, other)] == ["enc:v1:b"]
        for own, space in ((first, ns), (second, other)):
            nodes = (await own.gql.ok(EPISODES, ns=space))["episodes"]["nodes"]
            assert nodes == [{"content": SECRET}]
        # …and cannot open the other's: it holds no key of the other app's.
        refused = await second.gql(EPISODES, ns=ns)
        assert refused["errors"][0]["extensions"]["code"] == "DECRYPTION_FAILED"
        assert SECRET not in str(refused)

        # Archived, each turn goes into its own app's store, and nowhere else (a turn is
        # archived once embedded, from its plaintext: by its own app's worker, or here).
        for own, space in ((first, ns), (second, other)):
            await embed_all_pending(own.db, WordLlamaEmbedder(), 256)
            swept = await own.gql.ok(ARCHIVE_ALL, ns=space)
            assert swept["b"] == [{"episodesArchived": 1}]
        mine, theirs = _objects(here), _objects(there)
        assert len(mine) == 1 and len(theirs) == 1 and mine != theirs
        for own, space in ((first, ns), (second, other)):  # read back from its own store
            restored = await own.gql.ok("""mutation($ns: String!) { rehydrate(
                namespace: $ns, ids: ["m1"]) { content } }""", ns=space)
            assert restored["rehydrate"] == [{"content": SECRET}]
        assert _objects(here) == [] and _objects(there) == []
    # The suite's own app, made first and serving all along, holds no key of either.
    for space in (ns, other):
        refused = await gql(EPISODES, ns=space)
        assert refused["errors"][0]["extensions"]["code"] == "DECRYPTION_FAILED"


async def _traced(own: OwnApp, token: str, ns: str, trace_id: str) -> None:
    """An operation of ``own``'s, in the client's trace ``trace_id``."""
    response = await own.gql.http.post("/graphql", json={"query": EPISODES, "variables": {
        "ns": ns}}, headers={"Authorization": f"Bearer {token}",
                             "traceparent": f"00-{trace_id}-00f067aa0ba902b7-01"})
    assert "errors" not in response.json()


async def test_two_apps_trace_apart(
        settings: Settings, admin_token: str, app: Starlette, ns: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """One app exports spans, the other does not: the second's requests reach no collector
    (the tracer was the process's, so the first app made traced both)."""
    traced, untraced = "1" * 32, "2" * 32
    with otlp_collector(monkeypatch) as received:
        async with own_app(settings, admin_token, app, tracing="otlp") as first, \
                own_app(settings, admin_token, app) as second:
            await _traced(first, admin_token, ns, traced)
            await _traced(second, admin_token, ns, untraced)
    traces = {span.trace_id.hex() for _, span in received.spans()}
    assert traces == {traced}, "only the traced app's operation was exported"
    names = {span.name for _, span in received.spans()}
    assert "graphql query:episodes" in names and "cypher episodes/page" in names
    assert not first.db.tracing.enabled  # flushed and stopped with its app


async def test_two_apps_keep_their_own_background(
        settings: Settings, admin_token: str, app: Starlette, ns: str) -> None:
    """Each app's embedding backlog waits for its own requests only, in a process of its
    own (it was the process's: one app's traffic held every app's backlog back)."""
    session = background.of(app.state.runtime.db)
    async with own_app(settings, admin_token, app) as first, \
            own_app(settings, admin_token, app) as second:
        mine, theirs = background.of(first.db), background.of(second.db)
        assert len({id(mine), id(theirs), id(session)}) == 3
        assert background.of(first.db.admin()) is mine  # a copy of its database: the same
        ended = session.requests.last_ended
        await second.gql.ok(EPISODES, ns=ns)
        assert theirs.requests.last_ended > 0.0
        assert mine.requests.last_ended == 0.0, "the first app saw the second's request"
        assert session.requests.last_ended == ended
        await first.gql.ok(EPISODES, ns=ns)
        assert mine.requests.last_ended > 0.0


async def test_apps_made_inside_each_other_leave_the_session_one_embedding_worker(
        settings: Settings, admin_token: str, app: Starlette) -> None:
    """Each own app pauses the session app's worker. Nested, the inner one's end started a
    worker and the outer's another: the first ran on unseen, holding no key, and set aside
    what a later keyed app sealed (a flaky failure of tests/security/test_encryption.py)."""
    assert embedding_workers(app) == 1
    async with own_app(settings, admin_token, app):
        async with own_app(settings, admin_token, app):
            assert embedding_workers(app) == 0
        assert embedding_workers(app) == 0
    assert embedding_workers(app) == 1
