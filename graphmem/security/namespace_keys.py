"""A key per namespace, for encryption at rest that can erase one namespace cryptographically.

With ``GRAPHMEM_ENCRYPTION_PER_NAMESPACE=true``, a namespace's key is HKDF-SHA256 of the master
key (``GRAPHMEM_ENCRYPTION_KEYS``) with a random 32-byte salt kept in the graph as
``(:NamespaceKey {ns, salt})``, made when an episode is first written into the namespace
(recorded or imported). Before any statement of a namespace runs, the database layer asks
``prepare`` for its salt (a dictionary hit once loaded; re-read every ``KEY_CACHE_S`` seconds,
so a salt another process destroyed stops working here within that time).

``destroy`` deletes the salt: everything sealed under the namespace's key — episode content
and metadata in the graph, sealed exports, archived objects — can no longer be opened by
anyone, the master key's holder included, while every other namespace works on. What it does
not protect: what is not encrypted (facts, summaries, entity names, embeddings: erase the
namespace for those), plaintext exports made before, and the salt's own bytes, which Neo4j
keeps in its transaction logs until they rotate (one day on the local server) as it keeps
any deleted value.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from functools import partial

from neo4j import Query

from graphmem.core.errors import InvalidInput
from graphmem.core.namespaces import Namespace
from graphmem.db import database, migration_steps
from graphmem.db.database import Database
from graphmem.db.statements import statement
from graphmem.security import encryption
from graphmem.security.encryption import Keyring


async def prepare(db: Database, ns: str, create: bool = False) -> None:
    """Load the namespace's salt (made first when ``create``: a write is about to seal),
    unless encryption per namespace is off. Reading never makes one: a destroyed key stays
    destroyed, and an erased namespace gets none back from the erasure's own checks."""
    keyring = encryption.active(db)
    if keyring is None or not keyring.per_namespace or keyring.knows(ns, with_key=create):
        return
    # The driver directly, not db.read: those would call this hook again.
    records, _, _ = await db.driver.execute_query(
        _bounded(db, "security/encryption/namespace_key"), {"ns": ns}, database_=db.name,
        routing_="r")
    if not records and create:
        records, _, _ = await db.driver.execute_query(
            _bounded(db, "security/encryption/create_namespace_key"),
            {"ns": ns, "salt": secrets.token_hex(32), "now": datetime.now(UTC)},
            database_=db.name)
    keyring.remember(ns, bytes.fromhex(records[0]["salt"]) if records else None)


async def destroy(db: Database, ns: Namespace, confirm: str) -> bool:
    """Destroy the namespace's key: its sealed content becomes unreadable for good."""
    keyring = encryption.active(db)
    if keyring is None or not keyring.per_namespace:
        raise InvalidInput("encryption with a key per namespace is off "
                           "(GRAPHMEM_ENCRYPTION_PER_NAMESPACE): there is no key to destroy")
    if confirm != ns:
        raise InvalidInput("confirm must repeat the namespace whose key is destroyed",
                           field="confirm")
    records, _, _ = await db.driver.execute_query(
        _bounded(db, "security/encryption/destroy_namespace_key"), {"ns": ns}, database_=db.name)
    keyring.forget(ns)
    return bool(records[0]["destroyed"])


def _bounded(db: Database, name: str) -> Query:
    """A statement with the database's time bound, as ``Database`` runs its own."""
    return Query(statement(name), timeout=db.timeout_s)


async def _load(db: Database, ns: str) -> None:
    await prepare(db, ns)


def attach(db: Database, keyring: Keyring | None) -> Database:
    """``db`` sealing and opening content with ``keyring`` (None: encryption off), its
    migrations reading content through it, and, when keys are per namespace, loading each
    namespace's key before its statements run (else every statement would pay for a call
    that does nothing)."""
    hook: database.NamespaceHook | None = \
        _load if keyring is not None and keyring.per_namespace else None
    reveal: migration_steps.Reveal = partial(encryption.opened, keyring)
    return db.holding(encryption.KEYRING, keyring) \
        .holding(migration_steps.REVEAL, reveal) \
        .holding(database.NAMESPACE_HOOK, hook)
