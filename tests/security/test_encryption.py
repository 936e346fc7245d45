"""Encryption at rest of episode content (AES-256-GCM), over the real Neo4j and app: what is
stored is ciphertext bound to its namespace, every read path sees plaintext, retries stay
idempotent, and a key rotation re-seals everything under the new key."""

from __future__ import annotations

import base64
import json
import os
from collections.abc import AsyncIterator

import pytest
from starlette.applications import Starlette

from graphmem.core.config import Settings
from graphmem.core.errors import ConfigError, DecryptionFailed, InvalidInput
from graphmem.core.namespaces import Namespace
from graphmem.db import migration_steps
from graphmem.db.database import Database
from graphmem.db.statements import statement
from graphmem.episodes.key_rotation import rotate
from graphmem.portability import mem0
from graphmem.portability.importing import import_lines
from graphmem.retrieval.embeddings import WordLlamaEmbedder, embed_all_pending
from graphmem.security import encryption, namespace_keys
from graphmem.security.encryption import Keyring
from tests.portability.files import exported, lines
from tests.support.apps import OwnApp, keyed, own_app
from tests.support.client import GraphQLClient
from tests.support.documents import RECORD, ep
from tests.support.graph import delete_namespace, namespace_contents

SECRET = "Zanzibar-41c9"


def _key(key_id: str) -> str:
    return f"{key_id}:{base64.b64encode(os.urandom(32)).decode()}"


@pytest.fixture
async def keys(settings: Settings, admin_token: str,
               app: Starlette) -> AsyncIterator[tuple[OwnApp, list[str]]]:
    """An app of its own, sealing with k1 (k2 made for a rotation)."""
    made = [_key("k1"), _key("k2")]
    async with own_app(settings, admin_token, app, **keyed(made[0])) as own:
        yield own, made


def test_a_keyring_seals_to_its_namespace() -> None:
    ring = Keyring.parse(_key("a"))
    sealed = ring.seal(SECRET, "acme/u1")
    assert sealed.startswith("enc:v1:a:") and SECRET not in sealed
    assert ring.open(sealed, "acme/u1") == SECRET
    with pytest.raises(DecryptionFailed):
        ring.open(sealed, "acme/u2")  # replayed into another namespace
    with pytest.raises(DecryptionFailed):
        Keyring.parse(_key("b")).open(sealed, "acme/u1")
    for bad in ("k1:short", "k1", "bad id:" + base64.b64encode(os.urandom(32)).decode(),
                f"{_key('x')},{_key('x')}"):
        with pytest.raises(ConfigError):
            Keyring.parse(bad)


async def _raw(db: Database, ns: str) -> dict[str, dict[str, str]]:
    rows, _, _ = await db.driver.execute_query(
        "MATCH (e:Episode {ns: $ns}) RETURN e.external_id AS ext, e.content AS content, "
        "e.metadata AS metadata, e.context AS context, e.content_hash AS hash", {"ns": ns},
        database_=db.name)
    return {r["ext"]: dict(r) for r in rows}


async def test_stored_content_is_ciphertext_and_reads_are_plaintext(
        ns: str, keys: tuple[OwnApp, list[str]]) -> None:
    gql, db = keys[0].gql, keys[0].db
    batch = [ep("m1", 1, f"My locker code is {SECRET}.", metadata={"note": SECRET}),
             ep("m2", 2, "Noted, I will remember the locker.")]
    await gql.ok(RECORD, ns=ns, eps=batch)
    stored = await _raw(db, ns)
    assert SECRET not in str(stored)
    assert stored["m1"]["content"].startswith("enc:v1:k1:")
    assert stored["m1"]["metadata"].startswith("enc:v1:k1:")
    assert stored["m2"]["context"].startswith("enc:v1:k1:")  # the copy of m1 is sealed too
    assert stored["m1"]["hash"].startswith("hmac:k1:")

    read = await gql.ok("""query($ns: String!) { episodes(namespace: $ns) { nodes {
        externalId content metadata } } }""", ns=ns)
    first = read["episodes"]["nodes"][0]
    assert first["content"] == f"My locker code is {SECRET}." and first["metadata"] == {
        "note": SECRET}
    again = await gql.ok(RECORD, ns=ns, eps=batch)
    assert again["recordEpisodes"]["duplicates"] == 2  # retries compare through the HMAC
    changed = await gql(RECORD, ns=ns, eps=[ep("m1", 1, "something else")])
    assert changed["errors"][0]["extensions"]["code"] == "DUPLICATE_CONFLICT"

    # Embeddings are made from the plaintext, so meaning-based search still finds it.
    await embed_all_pending(db, WordLlamaEmbedder(), 256)
    found = await gql.ok("""query($ns: String!) { search(namespace: $ns, query: "locker code",
        kinds: [EPISODE]) { hits { episode { externalId content } matches { retriever } } } }""",
                         ns=ns)
    hits = found["search"]["hits"]
    assert "m1" in {h["episode"]["externalId"] for h in hits}
    assert {m["retriever"] for h in hits for m in h["matches"]} == {"vector"}  # no BM25


async def test_rotation_reseals_under_the_new_key(
        settings: Settings, admin_token: str, app: Starlette, ns: str,
        keys: tuple[OwnApp, list[str]]) -> None:
    (first, made) = keys
    batch = [ep("m1", 1, f"I live on {SECRET} street."), ep("m2", 2, "Got it.")]
    await first.gql.ok(RECORD, ns=ns, eps=batch)
    # k2 first: encrypts; k1 still decrypts (a CLI's database, as `graphmem encryption rotate`)
    db = namespace_keys.attach(first.db, encryption.keyring_from(f"{made[1]},{made[0]}"))
    assert await rotate(db, ns=Namespace(ns)) == 2
    stored = await _raw(db, ns)
    assert all(r["content"].startswith("enc:v1:k2:") for r in stored.values())
    assert stored["m2"]["context"].startswith("enc:v1:k2:")
    assert stored["m1"]["hash"].startswith("hmac:k2:")
    async with own_app(settings, admin_token, app, **keyed(made[1])) as second:  # k1 retired
        read = await second.gql.ok("""query($ns: String!) { episodes(namespace: $ns) { nodes {
            content } } }""", ns=ns)
        assert read["episodes"]["nodes"][0]["content"] == f"I live on {SECRET} street."
        assert (await second.gql.ok(RECORD, ns=ns, eps=batch))["recordEpisodes"][
            "duplicates"] == 2
        assert await rotate(second.db, ns=Namespace(ns)) == 0  # nothing left to re-seal


async def test_an_erasure_receipt_looks_for_the_plaintext_of_sealed_content(
        ns: str, keys: tuple[OwnApp, list[str]]) -> None:
    """Sealed turns are stored as ciphertext, but a copy of their words can sit elsewhere in
    plaintext (here: a fact quoting one): the receipt searches for both forms."""
    gql = keys[0].gql
    said = f"Please remember that my locker code is {SECRET}"
    await gql.ok(RECORD, ns=ns, eps=[ep("m1", 1, said)])
    await gql.ok("""mutation($ns: String!, $said: String!) { assertFacts(namespace: $ns,
        facts: [{subject: "user", predicate: "said", object: $said}]) { fact { id } } }""",
                 ns=ns, said=said)
    receipt = await gql.ok("""mutation($ns: String!) { eraseEpisodes(namespace: $ns,
        ids: ["m1"]) { remainingNodes remainingSearchable verified } }""", ns=ns)
    assert receipt["eraseEpisodes"] == {"remainingNodes": 0, "remainingSearchable": 1,
                                        "verified": False}


# Text a user may write that looks like what sealing stores: the bare prefix, free text after
# it, the escape's own form, a damaged value, and well-formed ones under a key the service
# holds (k1) and one it does not.
_LOOKS_SEALED = base64.b64encode(os.urandom(48)).decode()
FORGED = {"f1": "enc:", "f2": "enc:hello, a note about pelicans", "f3": "enc:raw:pelicans",
          "f4": "enc:v1:k1:not base64!", "f5": f"enc:v1:k1:{_LOOKS_SEALED}",
          "f6": f"enc:v2:k1:{_LOOKS_SEALED}", "f7": f"enc:v1:k9:{_LOOKS_SEALED}"}
CONTENTS = """query($ns: String!) { episodes(namespace: $ns, first: 50) {
    nodes { externalId content } } }"""


@pytest.fixture(params=["off", "on"])
async def encrypting(request: pytest.FixtureRequest, settings: Settings, admin_token: str,
                     app: Starlette, gql: GraphQLClient,
                     db: Database) -> AsyncIterator[OwnApp | None]:
    """The session's app (encryption off: None), or one of its own sealing with k1."""
    if request.param == "off":
        yield None
        return
    async with own_app(settings, admin_token, app, **keyed(_key("k1"))) as own:
        yield own


async def _contents(gql: GraphQLClient, ns: str) -> dict[str, str]:
    nodes = (await gql.ok(CONTENTS, ns=ns))["episodes"]["nodes"]
    return {n["externalId"]: n["content"] for n in nodes}


@pytest.mark.hostile("encryption")
async def test_content_that_looks_sealed_is_only_text(
        gql: GraphQLClient, db: Database, ns: str, encrypting: OwnApp | None) -> None:
    if encrypting is not None:
        gql, db = encrypting.gql, encrypting.db
    """Issue 36 item 6: content beginning with ``enc:`` was taken for sealed; its tenant's
    reads failed (DECRYPTION_FAILED) and so did every embedding batch it was in."""
    await gql.ok(RECORD, ns=ns, eps=[ep(ext, i, text, session=ext)
                                     for i, (ext, text) in enumerate(FORGED.items())])
    assert await _contents(gql, ns) == FORGED
    stored = await _raw(db, ns)
    for ext, text in FORGED.items():  # sealed, or escaped: never as it is
        assert stored[ext]["content"].startswith("enc:v1:k1:" if encrypting else "enc:raw:")
        assert stored[ext]["content"] != text

    await _embedded_and_found(gql, db, ns, FORGED)  # embedding raised DecryptionFailed before


async def _embedded_and_found(gql: GraphQLClient, db: Database, ns: str,
                              expected: dict[str, str]) -> None:
    """Every episode of ``ns`` is embedded, and each text is found by a search for it."""
    await embed_all_pending(db, WordLlamaEmbedder(), 256)
    embedded, _, _ = await db.driver.execute_query(
        "MATCH (e:Episode {ns: $ns}) RETURN count(e.embedding) AS vectors, "
        "count(CASE WHEN e:EmbedPending OR e:EmbedFailed THEN 1 END) AS not_embedded",
        {"ns": ns}, database_=db.name)
    assert dict(embedded[0]) == {"vectors": len(expected), "not_embedded": 0}
    for ext, text in expected.items():
        found = await gql.ok("""query($ns: String!, $q: String!) { search(namespace: $ns,
            query: $q, kinds: [EPISODE], limit: 10) { hits { episode { externalId content }
            } } }""", ns=ns, q=text)
        assert (ext, text) in {(h["episode"]["externalId"], h["episode"]["content"])
                               for h in found["search"]["hits"]}


@pytest.mark.hostile("encryption")
async def test_content_that_looks_sealed_survives_export_and_import(
        gql: GraphQLClient, db: Database, ns: str, encrypting: OwnApp | None) -> None:
    if encrypting is not None:
        gql, db = encrypting.gql, encrypting.db
    await gql.ok(RECORD, ns=ns, eps=[ep(ext, i, text, session=ext)
                                     for i, (ext, text) in enumerate(FORGED.items())])
    # Sealed content cannot move to another namespace: with encryption on, only a decrypted
    # export can; without it, both can.
    for decrypt in (True,) if encrypting else (False, True):
        other = f"{ns}-{'plain' if decrypt else 'stored'}"
        try:
            await import_lines(db, lines(await exported(db, ns, decrypt=decrypt)), into=other)
            assert await _contents(gql, other) == FORGED
            await _embedded_and_found(gql, db, other, FORGED)
        finally:
            await delete_namespace(db, other)
    file = lines(await exported(db, ns))  # and back where it came from, as stored
    await delete_namespace(db, ns)
    await import_lines(db, file)
    assert await _contents(gql, ns) == FORGED
    await _embedded_and_found(gql, db, ns, FORGED)


@pytest.mark.hostile("encryption")
async def test_mem0_memories_that_look_sealed_are_only_text(
        gql: GraphQLClient, db: Database, ns: str, encrypting: OwnApp | None) -> None:
    if encrypting is not None:
        gql, db = encrypting.gql, encrypting.db
    memories = [{"id": ext, "memory": text, "created_at": f"2024-07-20T08:4{i}:00Z"}
                for i, (ext, text) in enumerate(FORGED.items())]
    await import_lines(db, [json.dumps(r) for r in mem0.records(memories, Namespace(ns))])
    expected = {f"mem0:{ext}": text for ext, text in FORGED.items()}
    assert await _contents(gql, ns) == expected
    await _embedded_and_found(gql, db, ns, expected)


@pytest.mark.hostile("encryption")
async def test_migration_0020_escapes_text_stored_before(
        gql: GraphQLClient, db: Database, ns: str) -> None:
    """Text written before escaping sits in the graph as it was typed: the migration's step
    escapes what cannot be sealed and leaves the sealed form alone (only a key tells a forged
    one; its reads are refused as before, and the embedding worker sets it aside), and the
    escaped form too (run again, it escapes nothing twice)."""
    legacy = {"l1": "enc:an old note", "l2": "enc:raw:typed by a user",
              "l3": f"enc:v1:k1:{_LOOKS_SEALED}"}
    await gql.ok(RECORD, ns=ns, eps=[ep(ext, i, "placeholder", session=ext)
                                     for i, ext in enumerate(legacy)])
    await db.driver.execute_query(
        "UNWIND $rows AS row MATCH (e:Episode {ns: $ns, external_id: row.ext}) "
        "SET e.content = row.content", {"ns": ns, "rows": [
            {"ext": ext, "content": text} for ext, text in legacy.items()]}, database_=db.name)
    await migration_steps.escape_plain_enc(db)
    await migration_steps.escape_plain_enc(db)  # an interrupted step runs again: no change
    stored = await _raw(db, ns)
    assert {ext: stored[ext]["content"] for ext in legacy} == {
        "l1": "enc:raw:enc:an old note", "l2": legacy["l2"], "l3": legacy["l3"]}
    for ext, text in (("l1", legacy["l1"]), ("l2", "typed by a user")):  # a session each
        read = await gql.ok("""query($ns: String!, $s: String!) { episodes(namespace: $ns,
            where: {sessionId: $s}) { nodes { content } } }""", ns=ns, s=ext)
        assert read["episodes"]["nodes"] == [{"content": text}]


def test_the_migration_knows_the_sealed_form() -> None:
    text = statement("db/migration_steps/escape_plain_enc")
    assert f"'{encryption.SEALED_FORM}'" in text and f"'{encryption.PLAIN}'" in text
    assert f"'{encryption.PREFIX}'" in text


@pytest.mark.hostile("encryption")
async def test_an_import_refuses_sealed_values_no_key_opens(
        ns: str, keys: tuple[OwnApp, list[str]]) -> None:
    """An export's sealed values are taken as sealed, so one no key of the service opens for
    the namespace (forged, or sealed elsewhere) is refused by its line, not stored to fail
    every read of it."""
    gql, db = keys[0].gql, keys[0].db
    await gql.ok(RECORD, ns=ns, eps=[ep("m1", 1, "a real turn")])
    records = await exported(db, ns)
    await delete_namespace(db, ns)
    for record in records:
        if record.get("node") == "Episode":
            record["props"]["content"] = f"enc:v1:k1:{_LOOKS_SEALED}"
    with pytest.raises(InvalidInput, match=r"line \d+: content is encrypted under a key"):
        await import_lines(db, lines(records))
    assert await namespace_contents(db, ns) == []
