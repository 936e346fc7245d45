"""Encryption at rest of episode content (AES-256-GCM), over the real Neo4j and app: what is
stored is ciphertext bound to its namespace, every read path sees plaintext, retries stay
idempotent, and a key rotation re-seals everything under the new key."""

from __future__ import annotations

import base64
import os
from collections.abc import Iterator

import pytest

from graphmem.core.errors import ConfigError, DecryptionFailed
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database
from graphmem.episodes.key_rotation import rotate
from graphmem.retrieval.embeddings import WordLlamaEmbedder, embed_all_pending
from graphmem.security import encryption
from graphmem.security.encryption import Keyring
from tests.support.client import GraphQLClient
from tests.support.documents import RECORD, ep

SECRET = "Zanzibar-41c9"


def _key(key_id: str) -> str:
    return f"{key_id}:{base64.b64encode(os.urandom(32)).decode()}"


@pytest.fixture
def keys() -> Iterator[list[str]]:
    made = [_key("k1"), _key("k2")]
    encryption.install(made[0])
    yield made
    encryption.install(None)


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
        gql: GraphQLClient, db: Database, ns: str, keys: list[str]) -> None:
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


async def test_rotation_reseals_under_the_new_key(gql: GraphQLClient, db: Database, ns: str,
                                                  keys: list[str]) -> None:
    batch = [ep("m1", 1, f"I live on {SECRET} street."), ep("m2", 2, "Got it.")]
    await gql.ok(RECORD, ns=ns, eps=batch)
    encryption.install(f"{keys[1]},{keys[0]}")  # k2 first: encrypts; k1 still decrypts
    assert await rotate(db, ns=Namespace(ns)) == 2
    stored = await _raw(db, ns)
    assert all(r["content"].startswith("enc:v1:k2:") for r in stored.values())
    assert stored["m2"]["context"].startswith("enc:v1:k2:")
    assert stored["m1"]["hash"].startswith("hmac:k2:")
    encryption.install(keys[1])  # k1 retired
    read = await gql.ok("""query($ns: String!) { episodes(namespace: $ns) { nodes {
        content } } }""", ns=ns)
    assert read["episodes"]["nodes"][0]["content"] == f"I live on {SECRET} street."
    assert (await gql.ok(RECORD, ns=ns, eps=batch))["recordEpisodes"]["duplicates"] == 2
    assert await rotate(db, ns=Namespace(ns)) == 0  # nothing left to re-seal


async def test_an_erasure_receipt_looks_for_the_plaintext_of_sealed_content(
        gql: GraphQLClient, ns: str, keys: list[str]) -> None:
    """Sealed turns are stored as ciphertext, but a copy of their words can sit elsewhere in
    plaintext (here: a fact quoting one): the receipt searches for both forms."""
    said = f"Please remember that my locker code is {SECRET}"
    await gql.ok(RECORD, ns=ns, eps=[ep("m1", 1, said)])
    await gql.ok("""mutation($ns: String!, $said: String!) { assertFacts(namespace: $ns,
        facts: [{subject: "user", predicate: "said", object: $said}]) { fact { id } } }""",
                 ns=ns, said=said)
    receipt = await gql.ok("""mutation($ns: String!) { eraseEpisodes(namespace: $ns,
        ids: ["m1"]) { remainingNodes remainingSearchable verified } }""", ns=ns)
    assert receipt["eraseEpisodes"] == {"remainingNodes": 0, "remainingSearchable": 1,
                                        "verified": False}
