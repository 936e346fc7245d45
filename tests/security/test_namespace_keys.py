"""Encryption with a key per namespace, over the real Neo4j: each namespace's content is sealed
under its own derived key, and destroying one namespace's key leaves its stored, exported and
archived content unreadable for good — the master key's holder included — while another
namespace works on."""

from __future__ import annotations

import base64
import os
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest
from starlette.applications import Starlette

from graphmem.archive import stores, tiering
from graphmem.core.errors import DecryptionFailed, InvalidInput
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database
from graphmem.db.statements import statement
from graphmem.episodes import store as episodes
from graphmem.episodes.store import EpisodeKind, NewEpisode
from graphmem.portability.exporting import export
from graphmem.retrieval.embeddings import WordLlamaEmbedder, embed_all_pending
from graphmem.security import encryption, namespace_keys
from tests.support.client import GraphQLClient
from tests.support.graph import delete_namespace
from tests.support.runtime import embedding_paused

SECRET = "my passport number is X1234567"


@pytest.fixture
def per_namespace(db: Database) -> Database:
    """The suite's database with a master key, and a key per namespace derived from it."""
    return namespace_keys.attach(db, encryption.keyring_from(
        f"k1:{base64.b64encode(os.urandom(32)).decode()}", per_namespace=True))


@pytest.fixture
async def other(db: Database) -> AsyncIterator[str]:
    name = f"{os.urandom(4).hex()}/other"
    yield name
    await delete_namespace(db, name)


async def _said(db: Database, ns: str, text: str, external_id: str) -> str:
    done = await episodes.record(db, Namespace(ns), [NewEpisode(
        content=text, kind=EpisodeKind.USER_MESSAGE, occurred_at=datetime.now(UTC),
        external_id=external_id, session_id="s1", actor="user")])
    return done.episodes[0].id


async def _stored(db: Database, ns: str) -> list[str]:
    rows, _, _ = await db.driver.execute_query(
        "MATCH (e:Episode {ns: $ns}) RETURN e.content AS content ORDER BY e.external_id",
        {"ns": ns}, database_=db.name)
    return [r["content"] for r in rows]


async def test_destroying_a_namespaces_key_leaves_its_content_unreadable(
        ns: str, other: str, per_namespace: Database) -> None:
    db = per_namespace
    archived_id = await _said(db, ns, SECRET, "a1")
    kept = await _said(db, ns, "I renew it in May", "a2")
    theirs = await _said(db, other, SECRET, "b1")
    await embed_all_pending(db, WordLlamaEmbedder(), 256)  # nothing left for a worker to read
    sealed = await _stored(db, ns)
    assert all(v.startswith("enc:v2:k1:") for v in sealed) and SECRET not in str(sealed)
    assert (await _stored(db, other))[0] != sealed[0]  # same text, another key
    # The process's store: an export reads archived content back from it.
    store = stores.required(db)
    await tiering.archive_episodes(db, store, Namespace(ns), [archived_id])
    exported = [r async for r in export(db, Namespace(ns))]
    assert SECRET not in str(exported)

    with pytest.raises(InvalidInput, match="confirm"):
        await namespace_keys.destroy(db, Namespace(ns), "wrong")
    assert await namespace_keys.destroy(db, Namespace(ns), ns)

    with pytest.raises(DecryptionFailed, match="destroyed"):
        await episodes.by_ids(db, Namespace(ns), [kept])  # its content in the graph
    with pytest.raises(DecryptionFailed, match="destroyed"):
        await tiering.rehydrate(db, store, Namespace(ns), [archived_id])  # its archive
    with pytest.raises(DecryptionFailed):
        encryption.reveal(db, sealed[1], ns)  # with the master key still held
    assert (await episodes.by_ids(db, Namespace(other), [theirs]))[theirs].content == SECRET
    # The namespace itself goes on under a new key; what was sealed before stays lost.
    fresh = await _said(db, ns, "a new beginning", "a3")
    assert (await episodes.by_ids(db, Namespace(ns), [fresh]))[fresh].content \
        == "a new beginning"
    assert await _stored(db, ns) != sealed


async def test_only_an_admin_destroys_a_key_and_only_where_keys_are_per_namespace(
        gql: GraphQLClient, ns: str) -> None:
    refused = await gql("""mutation($ns: String!) { destroyNamespaceKey(namespace: $ns,
        confirm: $ns) }""", ns=ns)  # per-namespace keys are off here
    assert refused["errors"][0]["extensions"]["code"] == "INVALID_INPUT"


async def test_the_embedding_queue_runs_on_after_a_key_is_destroyed(
        app: Starlette, ns: str, other: str, per_namespace: Database) -> None:
    db = per_namespace
    async with embedding_paused(app):  # this test's own worker runs the queue
        await embed_all_pending(db, WordLlamaEmbedder(), 256)  # what others left
        lost = await _said(db, ns, SECRET, "a1")
        kept = await _said(db, other, "I like herons", "b1")
        keyring = encryption.active(db)
        assert keyring is not None
        keyring.salts.clear()  # as in a worker process that has read no namespace yet
        await namespace_keys.destroy(db, Namespace(ns), ns)
        await embed_all_pending(db, WordLlamaEmbedder(), 256)  # neither raises nor stalls
    rows, _, _ = await db.driver.execute_query(
        "MATCH (e:Episode) WHERE e.id IN $ids "
        "RETURN e.id AS id, e:EmbedPending AS waiting, e.embedding IS NOT NULL AS embedded",
        {"ids": [lost, kept]}, database_=db.name)
    state = {r["id"]: (r["waiting"], r["embedded"]) for r in rows}
    assert state == {kept: (False, True), lost: (False, False)}


async def test_a_key_another_process_destroyed_is_dropped_here_within_a_minute(
        ns: str, per_namespace: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """This process read the namespace's salt and keeps it; another process destroys the key
    (the statement `destroyNamespaceKey` runs, without this process's keyring hearing of it).
    Sixty seconds after the salt was read, it is read again, and the content is lost here
    too (README: "Other processes stop using a destroyed key within 60 seconds")."""
    db, clock = per_namespace, [1_000.0]
    monkeypatch.setattr(encryption, "time", SimpleNamespace(monotonic=lambda: clock[0]))
    said = await _said(db, ns, SECRET, "a1")
    assert (await episodes.by_ids(db, Namespace(ns), [said]))[said].content == SECRET
    await db.driver.execute_query(statement("security/encryption/destroy_namespace_key"),
                                  {"ns": ns}, database_=db.name)  # as another process does
    clock[0] += encryption.KEY_CACHE_S
    assert encryption.KEY_CACHE_S <= 60
    with pytest.raises(DecryptionFailed, match="destroyed"):
        await episodes.by_ids(db, Namespace(ns), [said])


async def test_a_namespace_read_before_its_first_turn_gets_a_key_for_it(
        ns: str, per_namespace: Database) -> None:
    """A read of a namespace with no key yet remembers that it has none; the first write then
    makes its key (a read never does), and what it seals opens."""
    db = per_namespace
    assert await episodes.by_ids(db, Namespace(ns), ["nothing"]) == {}
    keyring = encryption.active(db)
    assert keyring is not None and keyring.knows(ns) and not keyring.knows(ns, with_key=True)
    made = await _said(db, ns, SECRET, "m1")
    assert (await episodes.by_ids(db, Namespace(ns), [made]))[made].content == SECRET
    assert (await _stored(db, ns))[0].startswith(encryption.OWN)
