"""Tiered storage over the real Neo4j and the real stores: a local directory, and an
S3-compatible server speaking the real wire protocol (moto's, on loopback). Archived episodes
keep their place, hash and provenance and stay findable; rehydrated ones come back byte for
byte; erasure reaches the archive; a tampered object is refused."""

from __future__ import annotations

import json
import uuid
import zlib
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import boto3
import pytest
from moto.server import ThreadedMotoServer
from starlette.applications import Starlette

from graphmem.archive import stores, tiering
from graphmem.core.errors import ArchiveMissing
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database
from graphmem.governance import erasure
from graphmem.retrieval.embeddings import WordLlamaEmbedder, embed_all_pending
from tests.support.client import GraphQLClient
from tests.support.documents import ASSERT, RECORD, fact
from tests.support.graph import namespace_contents
from tests.support.server import free_port

EPISODES = """query($ns: String!) { episodes(namespace: $ns, first: 200) { nodes {
  id externalId content contentHash metadata archivedAt } } }"""
REHYDRATE = """mutation($ns: String!, $ids: [ID!]!) { rehydrate(namespace: $ns, ids: $ids) {
  externalId content contentHash metadata archivedAt } }"""
SWEEP = """mutation($ns: String!) { sweepRetention(namespace: $ns) {
  matched episodesArchived bytesArchived } }"""


def _turns(count: int) -> list[dict[str, Any]]:
    old = datetime.now(UTC) - timedelta(days=60)
    topics = ["sailing in Lisbon", "my sourdough starter", "the violin recital",
              "climbing in Kyoto", "tax forms"]
    return [{"externalId": f"t{i}", "sessionId": f"s{i % 3}", "kind": "USER_MESSAGE",
             "actor": "user", "content": f"Turn {i}: a long story about {topics[i % 5]}, "
             f"number {i}, with details " + "and more " * 20,
             "occurredAt": (old + timedelta(minutes=i)).isoformat(),
             "metadata": {"turn": i}} for i in range(count)]


async def _archived(gql: GraphQLClient, db: Database, ns: str,
                    count: int) -> list[dict[str, Any]]:
    await gql.ok(RECORD, ns=ns, eps=_turns(count))
    await embed_all_pending(db, WordLlamaEmbedder(), 256)  # a turn is archived once embedded
    await gql.ok(ASSERT, ns=ns, facts=[fact("user", "likes", "sailing", evidence=["t0"])])
    before = (await gql.ok(EPISODES, ns=ns))["episodes"]["nodes"]
    await gql.ok("""mutation($ns: String!) { setRetentionPolicy(namespace: $ns, policy: {
        maxAgeDays: 30, action: ARCHIVE}) { action } }""", ns=ns)
    [swept] = (await gql.ok(SWEEP, ns=ns))["sweepRetention"]
    assert swept["matched"] == swept["episodesArchived"] == count
    assert swept["bytesArchived"] > 0
    return list(before)


async def test_archived_episodes_keep_their_place_and_come_back_identical(
        gql: GraphQLClient, app: Starlette, db: Database, ns: str) -> None:
    before = await _archived(gql, db, ns, 150)
    after = {e["id"]: e for e in (await gql.ok(EPISODES, ns=ns))["episodes"]["nodes"]}
    assert [e["id"] for e in before] == list(after)  # same episodes, same order
    for episode in before:
        now = after[episode["id"]]
        assert now["content"] == "[archived]" and now["archivedAt"]
        assert now["contentHash"] == episode["contentHash"]
    store = stores.active(db)
    assert store is not None
    assert len(await tiering.objects_of(store, Namespace(ns))) == 150

    # Still reached through what stays in the graph: facts, provenance, vector search.
    why = await gql.ok("""query($ns: String!) { facts(namespace: $ns) { nodes {
        evidence { externalId archivedAt } } } }""", ns=ns)
    assert why["facts"]["nodes"][0]["evidence"][0]["externalId"] == "t0"
    found = await gql.ok("""query($ns: String!) { search(namespace: $ns, query:
        "sourdough starter", kinds: [EPISODE]) { hits { episode { externalId archivedAt }
        matches { retriever } } } }""", ns=ns)  # by the vector each archived turn kept
    hits = found["search"]["hits"]
    assert hits and all(h["episode"]["archivedAt"] for h in hits)
    assert {m["retriever"] for m in hits[0]["matches"]} == {"vector"}
    placeholder = await gql.ok("""query($ns: String!) { search(namespace: $ns, query:
        "archived", kinds: [EPISODE]) { hits { matches { retriever } } } }""", ns=ns)
    assert not [m for h in placeholder["search"]["hits"] for m in h["matches"]
                if m["retriever"] == "bm25"]  # the placeholder is no text of theirs

    wanted = [e["externalId"] for e in before[:100]]
    back = (await gql.ok(REHYDRATE, ns=ns, ids=wanted))["rehydrate"]
    assert [(e["externalId"], e["content"], e["contentHash"], e["metadata"]) for e in back] \
        == [(e["externalId"], e["content"], e["contentHash"], e["metadata"])
            for e in before[:100]]
    assert all(e["archivedAt"] is None for e in back)
    assert len(await tiering.objects_of(store, Namespace(ns))) == 50  # theirs deleted


async def test_erasure_reaches_the_archive(gql: GraphQLClient, app: Starlette, db: Database,
                                           ns: str) -> None:
    await _archived(gql, db, ns, 6)
    store = stores.active(db)
    assert store is not None
    receipt = await erasure.erase_episodes(db, Namespace(ns), ["t0", "t1"], "test")
    assert receipt.verified
    assert len(await tiering.objects_of(store, Namespace(ns))) == 4
    everything = await erasure.erase_namespace(db, Namespace(ns), ns, "test")
    assert everything.verified and everything.counts["archived_objects"] == 4
    assert await tiering.objects_of(store, Namespace(ns)) == []


async def test_a_tampered_object_is_refused_and_nothing_changes(
        gql: GraphQLClient, app: Starlette, db: Database, ns: str) -> None:
    await _archived(gql, db, ns, 2)
    store = stores.active(db)
    assert isinstance(store, stores.LocalStore)
    [key, _] = await tiering.objects_of(store, Namespace(ns))
    path = Path(store.root) / key
    path.write_bytes(path.read_bytes()[:-3] + b"xyz")
    answer = await gql(REHYDRATE, ns=ns, ids=["t0", "t1"])
    assert answer["errors"][0]["extensions"]["code"] == "ARCHIVE_MISSING"
    before = await namespace_contents(db, ns)  # the refusal's audit event included
    with pytest.raises(ArchiveMissing, match="does not match its address"):
        await tiering.rehydrate(db, store, Namespace(ns), ["t0", "t1"])
    assert await namespace_contents(db, ns) == before


@pytest.fixture(scope="module")
def s3() -> Iterator[stores.S3Store]:
    """moto's S3 server on loopback, with a bucket; the store talks to it over HTTP."""
    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port)
    server.start()
    endpoint = f"http://127.0.0.1:{port}"
    credentials = {"aws_access_key_id": "test", "aws_secret_access_key": "test",
                   "region_name": "us-east-1"}
    bucket = f"graphmem-{uuid.uuid4().hex[:8]}"
    boto3.client("s3", endpoint_url=endpoint, **credentials).create_bucket(Bucket=bucket)
    with pytest.MonkeyPatch.context() as env:
        for name, value in (("AWS_ACCESS_KEY_ID", "test"), ("AWS_SECRET_ACCESS_KEY", "test"),
                            ("AWS_DEFAULT_REGION", "us-east-1")):
            env.setenv(name, value)
        yield stores.S3Store(bucket, "memory", endpoint)
    server.stop()


async def test_the_archive_in_an_s3_compatible_store(
        gql: GraphQLClient, db: Database, ns: str, s3: stores.S3Store) -> None:
    await gql.ok(RECORD, ns=ns, eps=_turns(20))
    await embed_all_pending(db, WordLlamaEmbedder(), 256)
    before = (await gql.ok(EPISODES, ns=ns))["episodes"]["nodes"]
    here = Namespace(ns)
    moved = await tiering.archive_episodes(db, s3, here, [e["id"] for e in before])
    assert moved.episodes == 20 and moved.bytes_written < moved.bytes_moved
    assert len(await tiering.objects_of(s3, here)) == 20
    back = await tiering.rehydrate(db, s3, here, [e["id"] for e in before[:5]])
    assert [(e.content, e.content_hash) for e in back] == [
        (e["content"], e["contentHash"]) for e in before[:5]]
    assert len(await tiering.objects_of(s3, here)) == 15
    with pytest.raises(ArchiveMissing):
        await s3.get(f"{tiering.namespace_prefix(here)}/00/{'0' * 64}")
    await s3.delete(await tiering.objects_of(s3, here))
    assert await tiering.objects_of(s3, here) == []


async def test_every_path_of_erasure_reaches_the_archive(
        gql: GraphQLClient, app: Starlette, db: Database, ns: str) -> None:
    """Closing an ephemeral session and erasing a subject with its episodes delete the
    archived objects of the episodes they erase (and only those), as erasing episodes does."""
    await _archived(gql, db, ns, 6)  # sessions s0 (t0, t3), s1 (t1, t4), s2 (t2, t5)
    store = stores.active(db)
    assert store is not None
    here = Namespace(ns)
    await gql.ok("""mutation($ns: String!) { markSessionEphemeral(namespace: $ns,
        sessionId: "s1", idleMinutes: 30) { idleMinutes } }""", ns=ns)
    keys = {e["externalId"]: e["archiveKey"] for e in await _archive_keys(db, ns)}
    closed = await gql.ok("""mutation($ns: String!) { closeSession(namespace: $ns,
        sessionId: "s1") { verified remainingNodes } }""", ns=ns)
    assert closed["closeSession"] == {"verified": True, "remainingNodes": 0}
    left = set(await tiering.objects_of(store, here))
    assert left == {keys[t] for t in ("t0", "t2", "t3", "t5")}  # t1's and t4's are gone
    erased = await gql.ok("""mutation($ns: String!) { eraseSubject(namespace: $ns,
        entity: "sailing", episodes: true) { verified remainingNodes } }""", ns=ns)
    assert erased["eraseSubject"] == {"verified": True, "remainingNodes": 0}
    assert set(await tiering.objects_of(store, here)) == {keys[t] for t in ("t2", "t3", "t5")}


class _Unreachable(stores.LocalStore):
    """A store that stops answering after the archiving (an object store away): deleting
    fails, so the erased episodes' objects stay."""

    async def delete(self, keys: list[str]) -> None:
        raise OSError("the archive store does not answer")


async def test_an_object_left_in_the_archive_leaves_the_receipt_unverified(
        gql: GraphQLClient, app: Starlette, db: Database, ns: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    await _archived(gql, db, ns, 6)
    store = stores.active(db)
    assert isinstance(store, stores.LocalStore)
    here = Namespace(ns)
    await gql.ok("""mutation($ns: String!) { markSessionEphemeral(namespace: $ns,
        sessionId: "s1", idleMinutes: 30) { idleMinutes } }""", ns=ns)
    runtime = app.state.runtime  # the app's database, its store away
    monkeypatch.setattr(runtime, "db", runtime.db.holding(stores.STORE, _Unreachable(store.root)))
    closed = await gql.ok("""mutation($ns: String!) { closeSession(namespace: $ns,
        sessionId: "s1") { verified remainingNodes } }""", ns=ns)
    assert closed["closeSession"] == {"verified": False, "remainingNodes": 2}
    erased = await gql.ok("""mutation($ns: String!) { eraseSubject(namespace: $ns,
        entity: "sailing", episodes: true) { verified remainingNodes } }""", ns=ns)
    assert erased["eraseSubject"] == {"verified": False, "remainingNodes": 1}
    assert len(await tiering.objects_of(store, here)) == 6
    monkeypatch.undo()
    await store.delete(await tiering.objects_of(store, here))


async def _archive_keys(db: Database, ns: str) -> list[dict[str, Any]]:
    rows, _, _ = await db.driver.execute_query(
        "MATCH (e:Episode {ns: $ns}) WHERE e.archive_key IS NOT NULL "
        "RETURN e.external_id AS externalId, e.archive_key AS archiveKey", {"ns": ns},
        database_=db.name)
    return [dict(row) for row in rows]


async def test_an_object_that_is_what_its_address_says_but_not_the_episode_is_refused(
        gql: GraphQLClient, app: Starlette, db: Database, ns: str) -> None:
    """The object's address checks its bytes; the episode's content hash checks what they
    say. An object written whole under its own (right) address, claiming the episode's id and
    hash but holding other words, passes the first check and must fail the second."""
    await _archived(gql, db, ns, 2)
    store = stores.active(db)
    assert store is not None
    [row] = [r for r in await _archive_keys(db, ns) if r["externalId"] == "t0"]
    payload = json.loads(zlib.decompress(await store.get(row["archiveKey"])))
    payload["content"] = "Turn 0: I never said anything about sailing"
    forged = zlib.compress(json.dumps(payload, sort_keys=True).encode())
    key = stores.key_for(tiering.namespace_prefix(Namespace(ns)), forged)
    await store.put(key, forged)
    await db.driver.execute_query(
        "MATCH (e:Episode {ns: $ns, external_id: 't0'}) SET e.archive_key = $key",
        {"ns": ns, "key": key}, database_=db.name)
    assert stores.verify(key, await store.get(key)) == forged  # the address check passes
    before = await namespace_contents(db, ns)
    with pytest.raises(ArchiveMissing, match="does not match the episode's content hash"):
        await tiering.rehydrate(db, store, Namespace(ns), ["t0"])
    assert await namespace_contents(db, ns) == before
    answer = await gql(REHYDRATE, ns=ns, ids=["t0"])
    assert [e["extensions"]["code"] for e in answer["errors"]] == ["ARCHIVE_MISSING"]
    assert "never said" not in json.dumps(await gql.ok(EPISODES, ns=ns))
    await store.delete([key])


async def test_a_policy_that_keeps_archived_turns_unfindable_drops_their_vectors(
        gql: GraphQLClient, app: Starlette, db: Database, ns: str) -> None:
    """``keepSearchable: false``: an archived turn leaves the vector indexes with its content
    (its embedding goes, and it does not wait for another); the default keeps it."""
    await gql.ok(RECORD, ns=ns, eps=_turns(3))
    await embed_all_pending(db, WordLlamaEmbedder(), 256)
    await gql.ok("""mutation($ns: String!) { setRetentionPolicy(namespace: $ns, policy: {
        maxAgeDays: 30, action: ARCHIVE, keepSearchable: false}) { action } }""", ns=ns)
    [swept] = (await gql.ok(SWEEP, ns=ns))["sweepRetention"]
    assert swept["episodesArchived"] == 3
    rows, _, _ = await db.driver.execute_query(
        "MATCH (e:Episode {ns: $ns}) RETURN e.archived_at IS NOT NULL AS archived, "
        "e.embedding IS NOT NULL AS vector, e:EmbedPending AS waiting", {"ns": ns},
        database_=db.name)
    assert [dict(r) for r in rows] == [{"archived": True, "vector": False,
                                        "waiting": False}] * 3
