"""A database equipped as a process's settings say: the keyring of encryption at rest, the
archive store and where its spans go. The service, the CLI's commands and the tests equip
theirs here, below the API: a command that only needs the database (``graphmem import``)
starts without building the GraphQL schema (most of ``graphmem import``'s 5.7 s start)."""

from __future__ import annotations

from graphmem.archive import stores as archive_stores
from graphmem.archive.stores import ArchiveStore
from graphmem.core.config import Settings
from graphmem.db.database import Database
from graphmem.observability.tracing import Tracing
from graphmem.security import encryption, namespace_keys
from graphmem.security.encryption import Keyring


def equip(db: Database, keyring: Keyring | None, store: ArchiveStore | None,
          tracer: Tracing | None = None) -> Database:
    """``db`` holding what the process's settings give it: the keyring of encryption at rest
    (with the hook loading a namespace's key, and the migrations' way to read content), the
    archive store and where its spans go (``tracer``; None: nowhere). Each app, CLI command
    or test equips its own database, so two in one process share none of them (as two
    drivers share no configuration); each also has a background process of its own
    (``background.of``), started on first use."""
    db = namespace_keys.attach(db, keyring).holding(archive_stores.STORE, store)
    return db.traced(tracer) if tracer is not None else db


def equipped(db: Database, settings: Settings) -> Database:
    """``db`` equipped as ``settings`` say (the CLI's commands, tests)."""
    return equip(db, encryption.configured(settings), archive_stores.open_store(settings))
