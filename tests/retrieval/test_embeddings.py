"""Embedders and the vector space over the real Neo4j.

The OpenAI-compatible embedder is exercised against a local HTTP server speaking the real
`/v1/embeddings` wire format (we cannot reach a remote endpoint here).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import os
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar

import pytest
from pydantic import SecretStr
from starlette.applications import Starlette

from graphmem.core.config import Settings
from graphmem.core.errors import ConfigError
from graphmem.core.namespaces import Namespace
from graphmem.core.timeutil import to_native
from graphmem.db.database import Database, Row
from graphmem.episodes import store as episodes
from graphmem.episodes.store import EpisodeKind, NewEpisode
from graphmem.facts import store as facts
from graphmem.retrieval import embeddings
from graphmem.retrieval.background import Background
from graphmem.retrieval.search import Kind, SearchQuery, search
from graphmem.security import encryption, namespace_keys
from graphmem.security.encryption import Keyring
from tests.support.graph import delete_namespace
from tests.support.runtime import embedding_paused, starved

DIMENSION = 8


class _Embeddings(BaseHTTPRequestHandler):
    seen: ClassVar[list[dict[str, Any]]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        _Embeddings.seen.append({"path": self.path, "auth": self.headers.get("Authorization"),
                                 **body})
        data = [{"object": "embedding", "index": i, "embedding": _vector(text)}
                for i, text in enumerate(body["input"])]
        payload = json.dumps({"object": "list", "data": data, "model": body["model"],
                              "usage": {"prompt_tokens": 1, "total_tokens": 1}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: Any) -> None:
        pass


def _vector(text: str) -> list[float]:
    """Deterministic: texts sharing their first word point the same way."""
    digest = hashlib.sha256(text.split()[0].casefold().encode()).digest()
    return [b / 255 - 0.5 for b in digest[:DIMENSION]]


@pytest.fixture
def endpoint() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Embeddings)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


async def test_local_embedder_is_offline_and_normalised() -> None:
    vectors = await embeddings.WordLlamaEmbedder().embed(["I adopted a dog", "my puppy", "Kyoto"])
    assert [len(v) for v in vectors] == [256] * 3
    assert all(abs(sum(x * x for x in v) - 1) < 1e-3 for v in vectors)


@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")
async def test_unusable_vectors_are_not_stored() -> None:
    [empty] = await embeddings.WordLlamaEmbedder().embed([""])  # no tokens: NaN after norm
    assert embeddings.usable(empty) is None
    assert embeddings.usable([0.0] * 4) is None
    assert embeddings.usable([0.5, 0.5]) == [0.5, 0.5]


async def test_a_starved_backlog_is_embedded_in_the_service() -> None:
    """WordLlama's batches too: its background process stopped, the service embeds them."""
    texts = ["I adopted a dog", "my puppy", "Kyoto"]
    model, own = embeddings.WordLlamaEmbedder(), Background()
    try:
        async with starved(own), asyncio.timeout(30):  # without the floor: for ever
            assert await model.embed_backlog(texts, own) == await model.embed(texts)
    finally:
        own.stop()


async def test_new_memory_is_embedded_off_the_request_path(db: Database, ns: str) -> None:
    space = Namespace(ns)
    await facts.assert_facts(db, space, [facts.NewFact("Dana", "likes", "jazz")])
    # The write only queues them (the service's own worker may already have taken them).
    queued, _, _ = await db.driver.execute_query(
        "MATCH (n {ns: $ns}) WHERE n:Fact OR n:Entity "
        "RETURN count(CASE WHEN n:EmbedPending OR n.embedding IS NOT NULL THEN 1 END) AS n",
        {"ns": ns})
    assert queued[0]["n"] == 3  # the fact and its two entities
    await embeddings.embed_all_pending(db, embeddings.WordLlamaEmbedder(), 64)
    done, _, _ = await db.driver.execute_query(
        "MATCH (n {ns: $ns}) WHERE n:Fact OR n:Entity "
        "RETURN count(n.embedding) AS with_vector, count(n) AS n", {"ns": ns})
    assert done[0]["with_vector"] == done[0]["n"] == 3


async def test_switching_embedders_needs_a_reembed(db: Database, ns: str, endpoint: str,
                                                   app: object) -> None:
    settings = Settings.model_construct(
        **{**Settings().model_dump(), "embedder": "openai", "embedding_base_url": endpoint,
           "embedding_model": "test-model", "embedding_dimension": DIMENSION,
           "embedding_api_key": SecretStr("sk-test")})
    remote = embeddings.make_embedder(settings)
    assert remote is not None
    with pytest.raises(ConfigError, match="graphmem reembed"):
        await embeddings.ensure_space(db, remote)
    space = Namespace(ns)
    await facts.assert_facts(db, space, [facts.NewFact("Dana", "likes", "jazz")])
    try:
        await embeddings.reembed(db, remote)
        await asyncio.sleep(1.0)  # a worker still running the old embedder is refused
        await embeddings.embed_all_pending(db, remote, 500)
        found = await search(db, space, SearchQuery("Dana and friends", kinds=(Kind.ENTITY,)),
                             remote)
        assert [h.entity.name for h in found.hits if h.entity] == ["Dana"]
        assert any(m.retriever == "vector" for m in found.hits[0].matches)
        request = _Embeddings.seen[-1]
        assert (request["path"], request["auth"], request["model"], request["dimensions"]) == (
            "/v1/embeddings", "Bearer sk-test", "test-model", DIMENSION)
    finally:
        local = embeddings.WordLlamaEmbedder()
        await embeddings.reembed(db, local)
        await embeddings.embed_all_pending(db, local, 1000)


def test_what_is_embedded_is_bounded() -> None:
    """A 990,000-character document took the local model to 1.3 GB (issue 16.3)."""
    from graphmem.retrieval.embeddings import EMBED_MAX_CHARS, embedded_text

    document = "opening words " + "x" * 990_000
    assert embedded_text(document) == document[:EMBED_MAX_CHARS]
    with_context = embedded_text(document, "question " * 10_000)
    assert len(with_context) <= EMBED_MAX_CHARS
    assert "question" in with_context[:50] and "opening words" in with_context
    assert embedded_text("Porto, next month.", "Which city?") == "Which city?\nPorto, next month."
    # Its speaker's name goes with a turn (questions name who did something), the context's not:
    assert embedded_text("Porto, next month.", "Which city?", "Ana") == \
        "Which city?\nAna: Porto, next month."
    assert len(embedded_text(document, "question", "Ana" * 1_000)) <= EMBED_MAX_CHARS


async def test_the_worker_embeds_a_turn_with_its_speaker(db: Database, ns: str) -> None:
    """The claim hands the worker each episode's speaker: "What did Ana say about Porto?"
    finds Ana's turn by vector although her name is not in it. The suite's own worker may
    claim the turn first (the queue is service-wide): then the vector it stored says so."""
    await episodes.record(db, Namespace(ns), [
        NewEpisode("Porto, next month.", EpisodeKind.USER_MESSAGE, datetime(2026, 1, 1, tzinfo=UTC),
                   session_id="s", actor="Ana")])
    claimed = await db.write("retrieval/embeddings/claim", limit=10_000,
                             now=to_native(datetime.now(UTC)),
                             lease_until=to_native(datetime.now(UTC) + timedelta(seconds=60)))
    mine = [row for row in claimed if row["ns"] == ns]
    await db.write("retrieval/embeddings/release",
                   element_ids=[row["element_id"] for row in claimed])
    if mine:
        assert [embeddings._text(db, row) for row in mine] == ["Ana: Porto, next month."]
        return
    stored = await _stored_vector(db, ns)
    said, bare = await embeddings.WordLlamaEmbedder().embed(["Ana: Porto, next month.",
                                                             "Porto, next month."])
    assert _close(stored, said) and not _close(stored, bare)


async def _stored_vector(db: Database, ns: str) -> list[float]:
    for _ in range(100):
        rows, _, _ = await db.driver.execute_query(
            "MATCH (e:Episode {ns: $ns}) RETURN e.embedding AS v", {"ns": ns},
            database_=db.name)
        if rows and rows[0]["v"] is not None:
            return list(rows[0]["v"])
        await asyncio.sleep(0.1)
    raise AssertionError("nobody embedded the turn")


def _close(a: list[float], b: list[float]) -> bool:
    return max(abs(x - y) for x, y in zip(a, b, strict=True)) < 1e-3


async def _leased(db: Database, ns: str, count: int) -> datetime:
    """``count`` nodes waiting to be embedded, already leased until the time returned, so
    only claims that see past it (the tests', not the suite's own worker) take them."""
    later = datetime.now(UTC) + timedelta(hours=1)
    await db.driver.execute_query(
        "UNWIND range(1, $count) AS i CREATE (:Fact:EmbedPending {ns: $ns, id: $ns + i, "
        "text: 'waiting ' + i, embed_lease_until: $later})",
        {"ns": ns, "count": count, "later": to_native(later)}, database_=db.name)
    return later


async def _claim(db: Database, ns: str, later: datetime) -> set[str]:
    """What one claim just past ``later`` takes of ``ns``'s nodes (element ids)."""
    rows = await db.write("retrieval/embeddings/claim", limit=10_000,
                          now=to_native(later + timedelta(seconds=1)),
                          lease_until=to_native(later + timedelta(hours=1)))
    return {row["element_id"] for row in rows if row["ns"] == ns}


async def test_two_workers_never_claim_the_same_node(db: Database, ns: str) -> None:
    """What keeps several service processes from embedding one node twice (the claim takes
    each node's lock, then re-reads it); a claim given back can be taken at once. The nodes
    are made already leased until ``later``, so only claims that see past it (these, not the
    suite's own worker) take them."""
    later = await _leased(db, ns, 60)

    first, second = await asyncio.gather(_claim(db, ns, later), _claim(db, ns, later))
    assert len(first | second) == 60
    assert not first & second
    assert not await _claim(db, ns, later)  # all leased again
    await db.write("retrieval/embeddings/release", element_ids=sorted(first | second))
    # Given back: none is held to these claims' lease any more (the suite's own worker may
    # take them at once, for its minute, which is the point).
    held = (await db.driver.execute_query(
        "MATCH (n:EmbedPending {ns: $ns}) WHERE n.embed_lease_until >= $later "
        "RETURN count(n) AS n", {"ns": ns, "later": to_native(later)}, database_=db.name))
    assert held[0][0]["n"] == 0


async def test_a_worker_stopped_while_it_claims_gives_the_batch_back(
        db: Database, ns: str, app: Starlette, monkeypatch: pytest.MonkeyPatch) -> None:
    """The stop (a cancel) lands after Neo4j committed the claim and before its answer is
    read: what the claim took is given back at once, not left leased for a minute."""
    async with embedding_paused(app):
        await episodes.record(db, Namespace(ns), [NewEpisode(
            "Porto, next month.", EpisodeKind.USER_MESSAGE, datetime(2026, 1, 1, tzinfo=UTC))])
        write, stopping = db.write, asyncio.Event()

        async def answer_cut_off(name: str, /, **params: Any) -> list[Row]:
            rows = await write(name, **params)
            if name == "retrieval/embeddings/claim":
                stopping.set()
                await asyncio.sleep(0)  # the worker is cancelled here: its claim committed
            return rows

        monkeypatch.setattr(db, "write", answer_cut_off)
        worker = asyncio.create_task(embeddings.embed_pending(
            db, embeddings.WordLlamaEmbedder(), 10_000))
        await stopping.wait()
        worker.cancel()
        with pytest.raises(asyncio.CancelledError):
            await worker
        monkeypatch.setattr(db, "write", write)
        rows, _, _ = await db.driver.execute_query(
            "MATCH (e:Episode {ns: $ns}) RETURN e:EmbedPending AS waits, "
            "e.embed_lease_until AS lease", {"ns": ns}, database_=db.name)
        assert [(r["waits"], r["lease"]) for r in rows] == [(True, None)]


async def test_a_claim_that_waited_on_another_leaves_what_it_took(db: Database,
                                                                 ns: str) -> None:
    """Two claims that both read the same nodes as free, then wait on each other's locks: the
    one that gets them second re-reads them, sees them leased, and leaves them. (Made to wait
    by a third transaction holding the nodes' locks until both claims are blocked on them;
    claims that merely follow each other never reach the re-read.)"""
    later = await _leased(db, ns, 20)

    async with db.driver.session(database=db.name) as session:
        holder = await session.begin_transaction()
        await holder.run("MATCH (n:EmbedPending {ns: $ns}) SET n._held = true", ns=ns)
        claims = [asyncio.create_task(_claim(db, ns, later)) for _ in range(2)]
        for _ in range(200):  # until both wait on the holder's locks
            blocked, _, _ = await db.driver.execute_query(
                "SHOW TRANSACTIONS YIELD status, currentQuery "
                "WHERE status STARTS WITH 'Blocked' AND currentQuery CONTAINS 'EmbedPending' "
                "RETURN count(*) AS n", database_=db.name)
            if blocked[0]["n"] >= 2:
                break
            await asyncio.sleep(0.05)
        else:
            pytest.fail("the claims never waited on the holder's locks")
        await holder.rollback()
    first, second = await asyncio.gather(*claims)
    assert len(first | second) == 20
    assert not first & second
    await db.write("retrieval/embeddings/release", element_ids=sorted(first | second))


FORGED = "enc:v1:k9:" + "A" * 64  # sealed under a key no process holds (an old, dropped key)


async def _turns(db: Database, ns: str, *texts: str) -> None:
    await episodes.record(db, Namespace(ns), [
        NewEpisode(text, EpisodeKind.USER_MESSAGE, datetime(2026, 1, 1, 9, i, tzinfo=UTC),
                   session_id=f"s{i}") for i, text in enumerate(texts)])


async def _state(db: Database, ns: str) -> list[dict[str, Any]]:
    rows, _, _ = await db.driver.execute_query(
        "MATCH (e:Episode {ns: $ns}) RETURN e.content AS content, e:EmbedPending AS waiting, "
        "e:EmbedFailed AS set_aside, e.embed_error AS error, e.embedding IS NOT NULL AS vector "
        "ORDER BY e.occurred_at", {"ns": ns}, database_=db.name)
    return [dict(row) for row in rows]


async def _settled(db: Database, ns: str) -> list[dict[str, Any]]:
    """The namespace's episodes once none waits to be embedded (ten seconds at most)."""
    for _ in range(100):
        state = await _state(db, ns)
        if not any(row["waiting"] for row in state):
            return state
        await asyncio.sleep(0.1)
    return await _state(db, ns)


@pytest.mark.hostile("tenants")
async def test_a_node_no_key_opens_never_holds_back_another_tenants(db: Database,
                                                                  ns: str) -> None:
    """Issue 36 item 6: one episode whose content no key opens failed every embedding batch
    it was claimed in, so another tenant's new turns stayed unembedded (22 minutes)."""
    other = f"{ns}-b"
    try:
        # As a value sealed under a key since dropped reads, queued from the start: made as a
        # plain turn and sealed after, the suite's own worker had embedded the plain one first.
        await db.driver.execute_query(
            "CREATE (:Episode:EmbedPending {ns: $ns, id: 'ep_' + randomUUID(), seq: 0, "
            "kind: 'user_message', session_id: 's0', content: $forged, content_hash: 'x', "
            "occurred_at: datetime('2026-01-01T09:00:00Z'), recorded_at: datetime()})",
            {"ns": ns, "forged": FORGED}, database_=db.name)
        await _turns(db, other, "Porto, next month.", "I moved to Lisbon in May.")
        await embeddings.embed_all_pending(db, embeddings.WordLlamaEmbedder(), 500)
        # The suite's worker may hold some of them a moment longer: the same end either way.
        assert [(r["waiting"], r["vector"]) for r in await _settled(db, other)] == [
            (False, True), (False, True)]
        assert await _settled(db, ns) == [{"content": FORGED, "waiting": False,
                                           "set_aside": True, "error": "DecryptionFailed",
                                           "vector": False}]
    finally:
        await delete_namespace(db, other)


def _ring(key_id: str) -> str:
    return f"{key_id}:{base64.b64encode(os.urandom(32)).decode()}"


@pytest.mark.hostile("tenants")
@pytest.mark.parametrize("this_run", [None, "k1"], ids=["encryption-off", "another-k1"])
async def test_an_encrypted_leftover_of_an_earlier_run_fails_no_batch(
        db: Database, ns: str, this_run: str | None) -> None:
    """Issue 44: the shared test store held a turn an earlier run had sealed (under its own
    random ``k1``); this run has no key, or a ``k1`` of its own that opens nothing of that
    run's. ``embed_all_pending`` set aside that turn and embedded the rest, never raising
    DecryptionFailed for the whole batch (which held every namespace's turns)."""
    other = f"{ns}-b"
    earlier = Keyring.parse(_ring("k1")).seal("a turn of an earlier run", ns)
    db = namespace_keys.attach(db, encryption.keyring_from(_ring(this_run) if this_run else None))
    try:
        await db.driver.execute_query(
            "CREATE (:Episode:EmbedPending {ns: $ns, id: 'ep_' + randomUUID(), seq: 0, "
            "kind: 'user_message', session_id: 's0', content: $sealed, content_hash: 'x', "
            "occurred_at: datetime('2026-01-01T09:00:00Z'), recorded_at: datetime()})",
            {"ns": ns, "sealed": earlier}, database_=db.name)
        await _turns(db, other, "Porto, next month.", "I moved to Lisbon in May.")
        await embeddings.embed_all_pending(db, embeddings.WordLlamaEmbedder(), 500)
        assert [(r["waiting"], r["vector"]) for r in await _settled(db, other)] == [
            (False, True), (False, True)]
        assert await _settled(db, ns) == [{"content": earlier, "waiting": False,
                                           "set_aside": True, "error": "DecryptionFailed",
                                           "vector": False}]
    finally:
        await delete_namespace(db, other)


class _Refusing(embeddings.WordLlamaEmbedder):
    """An endpoint that refuses one input (as a remote one may, for its content or length):
    the whole request fails."""

    async def embed_backlog(self, texts: list[str], background: Background) -> list[list[float]]:
        if any("POISON" in text for text in texts):
            raise ValueError("input refused")
        return await super().embed_backlog(texts, background)


@pytest.mark.hostile("tenants")
async def test_a_text_the_embedder_refuses_is_set_aside_alone(db: Database, ns: str) -> None:
    """A batch the embedder refuses is embedded again node by node: the refused node is set
    aside (marked with the error's type, never its text), the others are embedded; a worker's
    start queues what was set aside again. The nodes are made already leased until ``later``,
    so only this claim (not the suite's own worker) takes them."""
    other = f"{ns}-b"
    later = datetime.now(UTC) + timedelta(hours=1)
    try:
        # Queued already leased: made as turns and leased after, the suite's own worker had
        # embedded them first (seen on a fresh clone's CI run).
        await db.driver.execute_query(
            "UNWIND $turns AS t CREATE (:Episode:EmbedPending {ns: t.ns, seq: t.i, "
            "id: 'ep_' + randomUUID(), kind: 'user_message', session_id: 's' + t.i, "
            "content: t.text, content_hash: 'x', recorded_at: datetime(), "
            "occurred_at: datetime('2026-01-01T09:00:00Z') + duration({minutes: t.i}), "
            "embed_lease_until: $later})",
            {"later": to_native(later), "turns": [
                {"ns": ns, "i": 0, "text": "POISON pill"},
                {"ns": other, "i": 0, "text": "Porto, next month."},
                {"ns": other, "i": 1, "text": "I moved to Lisbon in May."}]},
            database_=db.name)
        claimed = await db.write("retrieval/embeddings/claim", limit=10_000,
                                 now=to_native(later + timedelta(seconds=1)),
                                 lease_until=to_native(later + timedelta(hours=1)))
        mine = [row for row in claimed if row["ns"] in (ns, other)]
        await db.write("retrieval/embeddings/release", element_ids=[
            row["element_id"] for row in claimed if row not in mine])
        assert len(mine) == 3
        await embeddings._embed_claimed(db, _Refusing(), mine, later)
        assert [(r["waiting"], r["vector"]) for r in await _state(db, other)] == [
            (False, True), (False, True)]
        assert await _state(db, ns) == [{"content": "POISON pill", "waiting": False,
                                         "set_aside": True, "error": "ValueError",
                                         "vector": False}]
        await db.write("retrieval/embeddings/requeue_set_aside")
        assert [(r["waiting"], r["set_aside"], r["error"]) for r in await _state(db, ns)] == [
            (True, False, None)]
    finally:
        await delete_namespace(db, other)
