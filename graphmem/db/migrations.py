"""Numbered, idempotent schema migrations from ``cypher/db/migrations``, tracked in the graph.

Each file ``NNNN_name.cypher`` runs once; ``(:Migration {id, checksum, applied_at})`` records
it. Editing an applied file is refused: write a new migration instead.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from graphmem.core.errors import MigrationError
from graphmem.db import migration_steps
from graphmem.db.database import Database
from graphmem.db.statements import cypher_root, split_statements


@dataclass(frozen=True)
class Migration:
    id: str
    path: Path

    @property
    def text(self) -> str:
        return self.path.read_text("utf-8")

    @property
    def checksum(self) -> str:
        return hashlib.sha256(self.text.encode()).hexdigest()


@dataclass(frozen=True)
class MigrationState:
    id: str
    applied: bool
    checksum_matches: bool


def available(directory: Path | None = None) -> list[Migration]:
    folder = directory or cypher_root() / "db/migrations"
    paths = sorted(folder.glob("[0-9][0-9][0-9][0-9]_*.cypher"))
    return [Migration(path.stem, path) for path in paths]


async def status(db: Database, directory: Path | None = None) -> list[MigrationState]:
    applied = {row["id"]: row["checksum"] for row in await db.read("db/migrations_applied")}
    return [
        MigrationState(m.id, m.id in applied, applied.get(m.id, m.checksum) == m.checksum)
        for m in available(directory)
    ]


async def apply(db: Database, directory: Path | None = None) -> list[str]:
    """Apply pending migrations in order; returns the ids applied now (empty when up to date).
    A migration's step may rewrite a whole store: it has the administrative time bound."""
    db = db.admin()
    applied = {row["id"]: row["checksum"] for row in await db.read("db/migrations_applied")}
    done: list[str] = []
    for migration in available(directory):
        if migration.id in applied:
            if applied[migration.id] != migration.checksum:
                raise MigrationError(
                    f"migration {migration.id} was changed after it was applied; "
                    "restore it and add a new migration instead"
                )
            continue
        for text in split_statements(migration.text):
            await db.run_schema(text)
        if step := migration_steps.STEPS.get(migration.id):
            await step(db)
        await db.write("db/migration_record", id=migration.id, checksum=migration.checksum)
        done.append(migration.id)
    return done
