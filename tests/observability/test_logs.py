"""Logs never contain memory content or query variables; every line has a request id."""

from __future__ import annotations

import json
import logging
import sys

import httpx
import pytest

from graphmem.observability.logs import JsonFormatter, quiet_libraries
from tests.support.client import GraphQLClient
from tests.support.documents import ASSERT, RECORD, fact, said

SECRET = "Kilimanjaro-7f3a"


async def test_a_run_logs_no_content(caplog: pytest.LogCaptureFixture,
                                     client: httpx.AsyncClient, gql: GraphQLClient,
                                     ns: str) -> None:
    caplog.set_level(logging.INFO)  # INFO and up, libraries quieted: what `serve` runs
    quiet_libraries()
    await gql.ok(RECORD, ns=ns, eps=[said("m1", "2026-05-01T10:00:00Z", f"I live on {SECRET}")])
    await gql.ok(ASSERT, ns=ns, facts=[fact("user", "lives_on", SECRET, evidence=["m1"])])
    await gql("""query($ns: String!, $q: String!) { search(namespace: $ns, query: $q) {
        hits { kind } } }""", ns=ns, q=SECRET)
    await gql(ASSERT, ns=ns, facts=[fact(SECRET, f"{SECRET} drop", SECRET)])  # typed error
    await gql(RECORD, ns=ns, eps=[said("m1", "2026-05-01T10:00:00Z", f"other {SECRET}")])
    await client.get(f"/graphql?query={SECRET}", headers={"x-request-id": "trace-1"})
    formatter = JsonFormatter()
    lines = [formatter.format(record) for record in caplog.records]
    assert lines, "expected some log lines"
    assert not [line for line in lines if SECRET in line]
    access = [json.loads(line) for line in lines if '"logger": "graphmem.access"' in line]
    assert {"method", "path", "status", "ms", "request_id"} <= set(access[-1])
    assert access[-1]["request_id"] == "trace-1" and access[-1]["path"] == "/graphql"


async def test_request_ids_are_echoed_or_made(client: httpx.AsyncClient) -> None:
    given = await client.get("/healthz", headers={"x-request-id": "abc-123"})
    assert given.headers["x-request-id"] == "abc-123"
    made = await client.get("/healthz", headers={"x-request-id": "not ok\nX-Evil: 1"})
    assert made.headers["x-request-id"] != "not ok\nX-Evil: 1"
    assert len(made.headers["x-request-id"]) == 32


def test_a_logged_exception_is_named_by_its_type_never_its_message() -> None:
    """A driver's or library's message may quote what it was given: an error's log line
    carries the exception's type only."""
    try:
        raise ValueError(f"could not store {SECRET}")
    except ValueError:
        record = logging.getLogger("graphmem.test").makeRecord(
            "graphmem.test", logging.ERROR, __file__, 1, "unexpected %s", ("ValueError",),
            sys.exc_info())
    line = JsonFormatter().format(record)
    assert json.loads(line)["exception"] == "ValueError"
    assert SECRET not in line


def test_libraries_that_log_content_stay_quiet_under_a_debug_root() -> None:
    """GRAPHMEM_LOG_LEVEL=DEBUG is for graphmem's own lines: the Neo4j driver would log every
    query with its parameters (memory content) at DEBUG."""
    root = logging.getLogger()
    before = root.level
    try:
        root.setLevel(logging.DEBUG)
        quiet_libraries()
        for noisy in ("neo4j", "httpx", "openai", "uvicorn.access"):
            assert not logging.getLogger(noisy).isEnabledFor(logging.INFO), noisy
    finally:
        root.setLevel(before)
