"""Parameters reach Neo4j unchanged, are never formatted with their content, and UTC
instants take the fast path to exactly the structure the driver itself would build."""

from __future__ import annotations

import logging
import random
from datetime import UTC, datetime, timedelta, timezone

import pytest
from neo4j._codec.hydration.v2 import temporal

from graphmem import bolt
from graphmem.db import Database


def _driver_own(value: datetime) -> tuple[bytes, tuple[object, ...]]:
    own = temporal.dehydrate_datetime
    own = getattr(own, "__wrapped__", own)  # the installed path keeps the driver's own
    packed = own(value)
    return packed.tag, tuple(packed.fields)


def test_fast_utc_path_builds_the_drivers_own_structure() -> None:
    bolt.install_fast_utc()
    bolt.install_fast_utc()  # idempotent: wraps once
    rng = random.Random(7)
    span = (datetime(9999, 12, 31, tzinfo=UTC) - datetime(1, 1, 1, tzinfo=UTC))
    instants = [datetime(1, 1, 1, tzinfo=UTC) + timedelta(
        microseconds=rng.randrange(span // timedelta(microseconds=1))) for _ in range(5000)]
    instants += [datetime(1969, 12, 31, 23, 59, 59, 999_999, tzinfo=UTC),
                 datetime(1970, 1, 1, tzinfo=UTC), datetime(1970, 1, 1, 0, 0, 0, 1, tzinfo=UTC)]
    for instant in instants:
        packed = temporal.dehydrate_datetime(instant)
        assert (packed.tag, tuple(packed.fields)) == _driver_own(instant), instant


@pytest.mark.parametrize("value", [
    datetime(2026, 5, 1, 9, 30, tzinfo=timezone(timedelta(hours=2))),
    datetime(2026, 5, 1, 9, 30),
])
def test_other_datetimes_are_left_to_the_driver(value: datetime) -> None:
    bolt.install_fast_utc()
    packed = temporal.dehydrate_datetime(value)
    assert (packed.tag, tuple(packed.fields)) == _driver_own(value)


async def test_utc_instants_round_trip_and_compare_in_cypher(db: Database) -> None:
    moon = datetime(1969, 7, 20, 20, 17, 40, 123_456, tzinfo=UTC)
    records, _, _ = await db.driver.execute_query(
        "RETURN $t AS t, $t = datetime('1969-07-20T20:17:40.123456Z') AS same",
        bolt.masked({"t": moon}), database_=db.name)
    assert records[0]["same"] is True
    assert records[0]["t"].to_native() == moon


async def test_masked_parameters_reach_neo4j_unchanged(db: Database) -> None:
    sent = {"rows": [{"text": "héllo", "at": datetime(2026, 1, 1, tzinfo=UTC)}],
            "map": {"vector": [0.5, -1.25]}, "text": "plain", "n": 3, "none": None}
    records, _, _ = await db.driver.execute_query(
        "RETURN $rows AS rows, $map AS map, $text AS text, $n AS n, $none AS none",
        bolt.masked(sent), database_=db.name)
    got = records[0].data()
    got["rows"][0]["at"] = got["rows"][0]["at"].to_native()
    assert got == sent


def test_masked_parameters_format_without_content() -> None:
    shown = repr(bolt.masked({"rows": [{"secret": "the patient's diagnosis"}],
                              "map": {"secret": "x"}, "text": "my password is hunter2",
                              "n": 3}))
    assert "diagnosis" not in shown and "hunter2" not in shown and "secret" not in shown
    assert "<list of 1>" in shown and "<string of 22>" in shown and "3" in shown


async def test_the_drivers_debug_log_never_holds_memory_content(
        db: Database, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG, logger="neo4j"):
        await db.read("entities/by_name", ns="bolt-test", key="my password is hunter2")
        await db.transaction(lambda tx: tx.run("entities/by_name", ns="bolt-test",
                                               key="the patient's diagnosis"))
    assert any("RUN" in r.getMessage() for r in caplog.records)  # the log was on
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "diagnosis" not in logged and "hunter2" not in logged
