"""Parameters reach Neo4j unchanged, are never formatted with their content, and UTC
instants take the fast path to exactly the structure the driver itself would build."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from neo4j._codec.hydration.v2 import temporal

from graphmem.core.timeutil import parse_stored_datetime
from graphmem.db import bolt
from graphmem.db.database import Database


def _pack(value: datetime) -> Any:
    """The codec's current packer (the driver's own, or graphmem's path once installed)."""
    packer: Callable[[datetime], Any] = temporal.dehydrate_datetime
    return packer(value)


def _unpack(*fields: Any) -> Any:
    unpacker: Callable[..., Any] = temporal.hydrate_datetime
    return unpacker(*fields)


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
        packed = _pack(instant)
        assert (packed.tag, tuple(packed.fields)) == _driver_own(instant), instant


@pytest.mark.parametrize("value", [
    datetime(2026, 5, 1, 9, 30, tzinfo=timezone(timedelta(hours=2))),
    datetime(2026, 5, 1, 9, 30),
])
def test_other_datetimes_are_left_to_the_driver(value: datetime) -> None:
    bolt.install_fast_utc()
    packed = _pack(value)
    assert (packed.tag, tuple(packed.fields)) == _driver_own(value)


def test_fast_utc_unpacking_gives_the_same_instant_as_the_driver() -> None:
    bolt.install_fast_utc()
    own = temporal.hydrate_datetime.__wrapped__  # type: ignore[attr-defined]
    rng = random.Random(11)
    for _ in range(5000):
        seconds = rng.randrange(-62_135_596_800, 253_402_300_799)  # years 1 to 9999
        micros = rng.randrange(1_000_000)
        fast = _unpack(seconds, micros * 1_000, 0)
        assert type(fast) is datetime and fast.tzinfo is UTC
        assert fast == own(seconds, micros * 1_000, 0).to_native(), (seconds, micros)


@pytest.mark.parametrize("fields", [
    (0, 1, 0),  # a nanosecond: a datetime would drop it
    (0, 0, 7200),  # an offset
    (0, 0, "Europe/Lisbon"),  # a zone name
    (0, 0, None),  # a local datetime
])
def test_other_stored_datetimes_are_unpacked_by_the_driver(fields: tuple[Any, ...]) -> None:
    bolt.install_fast_utc()
    assert type(_unpack(*fields)) is not datetime


async def test_utc_instants_round_trip_and_compare_in_cypher(db: Database) -> None:
    moon = datetime(1969, 7, 20, 20, 17, 40, 123_456, tzinfo=UTC)
    records, _, _ = await db.driver.execute_query(
        "RETURN $t AS t, $t = datetime('1969-07-20T20:17:40.123456Z') AS same, "
        "datetime('2026-05-01T09:30:00+02:00') AS zoned",
        bolt.masked({"t": moon}), database_=db.name)
    assert records[0]["same"] is True
    assert records[0]["t"] == moon and records[0]["t"].tzinfo is UTC
    assert parse_stored_datetime(records[0]["zoned"]) == datetime(2026, 5, 1, 7, 30, tzinfo=UTC)


async def test_masked_parameters_reach_neo4j_unchanged(db: Database) -> None:
    sent = {"rows": [{"text": "héllo", "at": datetime(2026, 1, 1, tzinfo=UTC)}],
            "map": {"vector": [0.5, -1.25]}, "text": "plain", "n": 3, "none": None}
    records, _, _ = await db.driver.execute_query(
        "RETURN $rows AS rows, $map AS map, $text AS text, $n AS n, $none AS none",
        bolt.masked(sent), database_=db.name)
    got = records[0].data()
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
        await db.read("facts/entities/by_name", ns="bolt-test", key="my password is hunter2")
        await db.transaction(lambda tx: tx.run("facts/entities/by_name", ns="bolt-test",
                                               key="the patient's diagnosis"))
    assert any("RUN" in r.getMessage() for r in caplog.records)  # the log was on
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "diagnosis" not in logged and "hunter2" not in logged


def test_an_unexpected_codec_is_left_to_the_driver() -> None:
    """Another driver version's codec (names gone or not functions): nothing is patched, the
    service runs on the driver's own code."""
    from types import SimpleNamespace

    for codec in (SimpleNamespace(), SimpleNamespace(dehydrate_datetime=1, hydrate_datetime=2,
                                                     Structure=3)):
        before = dict(vars(codec))
        assert bolt.install_fast_utc(codec) is False
        assert vars(codec) == before
    assert bolt.install_fast_utc() is True  # the driver this is tested with
