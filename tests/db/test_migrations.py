"""Migrations are numbered, idempotent, tracked in the graph, and frozen once applied."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphmem.core.errors import MigrationError
from graphmem.db import migrations
from graphmem.db.database import Database


async def test_applying_twice_is_a_no_op(db: Database) -> None:
    await migrations.apply(db)
    assert await migrations.apply(db) == []
    states = await migrations.status(db)
    assert states and all(s.applied and s.checksum_matches for s in states)


async def test_changed_applied_migration_is_refused(db: Database, tmp_path: Path) -> None:
    migration = tmp_path / "9901_test_probe.cypher"
    migration.write_text("CREATE INDEX test_probe IF NOT EXISTS FOR (n:TestProbe) ON (n.ns);\n")
    try:
        assert await migrations.apply(db, tmp_path) == ["9901_test_probe"]
        assert await migrations.apply(db, tmp_path) == []
        migration.write_text("CREATE INDEX test_probe2 IF NOT EXISTS FOR (n:TestProbe) ON (n.x);\n")
        with pytest.raises(MigrationError, match="changed after it was applied"):
            await migrations.apply(db, tmp_path)
    finally:
        await db.driver.execute_query("DROP INDEX test_probe IF EXISTS")
        await db.driver.execute_query("MATCH (m:Migration {id: '9901_test_probe'}) DELETE m")


async def test_core_constraints_exist(db: Database) -> None:
    rows, _, _ = await db.driver.execute_query(
        "SHOW CONSTRAINTS YIELD name RETURN collect(name) AS names")
    assert {"episode_id", "episode_external_id", "fact_id", "entity_key"} <= set(rows[0]["names"])
