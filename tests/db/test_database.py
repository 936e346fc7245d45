"""The narrow way graphmem talks to Neo4j: reads run in auto-commit transactions, so they
are retried here rather than by the driver; every statement and transaction has a time bound
that Neo4j enforces."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import SecretStr
from starlette.applications import Starlette

from graphmem.core.config import Settings
from graphmem.core.errors import DatabaseUnavailable, QueryTimeout
from graphmem.db import database as db_module
from graphmem.db.database import Database, Tx, open_database
from graphmem.db.statements import statement
from tests.support.client import GraphQLClient
from tests.support.documents import RECORD, ep
from tests.support.graph import delete_namespace
from tests.support.server import free_port

# About ten seconds of one Neo4j core when nothing ends it (a hundred million rows).
SLOW = "UNWIND range(1, 100000000) AS x WITH x WHERE x % 7 = 13 RETURN count(*) AS n"
BOUND_S = 1.0
SLACK_S = 3.0  # Neo4j checks its bound about every second; a loaded machine answers late


async def test_a_read_is_retried_while_neo4j_is_away_then_fails_retryable(
        settings: Settings) -> None:
    away = open_database(settings.model_copy(update={
        "neo4j_uri": f"bolt://127.0.0.1:{free_port()}", "neo4j_password": SecretStr("unused"),
        "neo4j_max_retry_s": 0.5}))
    try:
        with pytest.raises(DatabaseUnavailable) as raised:
            await away.read("retrieval/search/actors", ns="anything", keys=["sam"])
        assert raised.value.retryable
        assert away.round_trips > 1  # tried again before giving up
    finally:
        await away.close()


@pytest.fixture
def slow(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """``test/slow`` is a statement that runs for about ten seconds unless ended, and
    ``test/probe`` writes one node of a namespace: both go through the real wrapper."""
    texts = {"test/slow": SLOW, "test/probe": "CREATE (:TimeoutProbe {ns: $ns})"}
    monkeypatch.setattr(db_module, "statement", lambda name: texts.get(name) or statement(name))
    yield


async def _quick(db: Database, ns: str) -> float:
    started = time.monotonic()
    await db.read("episodes/sessions", ns=ns, limit=5, after_t=None, after_id=None)
    return time.monotonic() - started


@pytest.mark.hostile("database")
async def test_a_read_past_its_bound_ends_typed_while_another_tenant_reads(
        db: Database, slow: None, ns: str) -> None:
    bounded = dataclasses.replace(db, timeout_s=BOUND_S)
    started = time.monotonic()
    running = asyncio.create_task(bounded.read("test/slow"))
    await asyncio.sleep(0.3)
    # Another tenant is answered meanwhile: well before the slow read's ten seconds, so not
    # queued behind it (a bound of BOUND_S alone failed on a CI machine three Neo4js loaded).
    assert await _quick(db, ns) < BOUND_S + SLACK_S
    with pytest.raises(QueryTimeout) as raised:
        await running
    assert time.monotonic() - started < BOUND_S + SLACK_S
    assert raised.value.code == "QUERY_TIMEOUT" and not raised.value.retryable


@pytest.mark.hostile("database")
async def test_a_transaction_past_its_bound_ends_typed_and_writes_nothing(
        db: Database, slow: None, ns: str) -> None:
    bounded = dataclasses.replace(db, timeout_s=BOUND_S)

    async def work(tx: Tx) -> None:
        await tx.run("test/probe", ns=ns)
        await tx.run("test/slow")

    started = time.monotonic()
    with pytest.raises(QueryTimeout):
        await bounded.transaction(work)
    assert time.monotonic() - started < BOUND_S + SLACK_S  # not retried as transient
    records, _, _ = await db.driver.execute_query(
        "MATCH (n:TimeoutProbe {ns: $ns}) RETURN count(n) AS n", {"ns": ns}, database_=db.name)
    assert records[0]["n"] == 0
    # Administrative work keeps its own, longer bound on the same driver.
    assert bounded.admin().timeout_s == db.admin_timeout_s and bounded.admin().driver is db.driver


@pytest.mark.hostile("database")
async def test_a_request_past_its_bound_is_a_typed_graphql_error(
        app: Starlette, db: Database, gql: GraphQLClient, slow: None, ns: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Over the service: the slow statement stands in for a query that runs long (the
    provenance of a stored supersession cycle did, for minutes); the caller gets
    QUERY_TIMEOUT, not INTERNAL, and another tenant's request is answered meanwhile."""
    other = f"{ns}-other"
    await gql.ok(RECORD, ns=other, eps=[ep("o1", 1, "another tenant's turn")])
    runtime_db: Database = app.state.runtime.db
    monkeypatch.setattr(runtime_db, "timeout_s", BOUND_S)
    monkeypatch.setattr(db_module, "statement",
                        lambda name: SLOW if name == "facts/provenance" else statement(name))
    started = time.monotonic()
    running = asyncio.create_task(gql("""query($ns: String!) {
        provenance(namespace: $ns, factId: "fact_x") { fact { id } } }""", ns=ns))
    try:
        await asyncio.sleep(0.3)
        listed = await gql.ok("""query($ns: String!) { episodes(namespace: $ns) {
            nodes { content } } }""", ns=other)
        assert listed["episodes"]["nodes"] == [{"content": "another tenant's turn"}]
        body = await running
    finally:
        await delete_namespace(db, other)
    assert time.monotonic() - started < BOUND_S + SLACK_S
    assert [e["extensions"]["code"] for e in body["errors"]] == ["QUERY_TIMEOUT"]
    assert "retryable" not in body["errors"][0]["extensions"]


async def test_a_failure_is_remembered_by_every_copy_of_the_database(
        settings: Settings) -> None:
    """Neo4j's own failure, met through ``admin()``'s copy (an erasure, an export), is the
    process's: /readyz reads it from the runtime's Database."""
    db = open_database(settings)
    try:
        assert db.admin().health is db.health
        assert db.patience_s == settings.neo4j_max_retry_s + settings.neo4j_timeout_s
    finally:
        await db.close()


WORDLLAMA = "wordllama/l2_supercat_256"  # the suite's embedder: its space is the current one


@pytest.mark.parametrize("through", ["write", "transaction"])
async def test_a_statement_that_meets_a_node_deleted_meanwhile_runs_again(
        db: Database, ns: str, through: str) -> None:
    """The embedding worker stores a vector while an erasure deletes the node: the store met
    the node, waited for its lock, then found it gone (EntityNotFound), and the worker's
    whole run failed (a flake of the suite: tests delete their namespaces while the app's
    worker embeds; a search loading a turn being erased answered INTERNAL the same way)."""
    made, _, _ = await db.driver.execute_query(
        "CREATE (n:Entity:EmbedPending {ns: $ns, id: 'gone', name: 'gone'}) "
        "RETURN elementId(n) AS id", {"ns": ns}, database_=db.name)
    rows = [{"element_id": made[0]["id"], "vector": None}]

    async def store() -> list[dict[str, Any]]:
        if through == "write":
            return await db.write("retrieval/embeddings/store", model=WORDLLAMA, rows=rows)
        return await db.transaction(lambda tx: tx.run("retrieval/embeddings/store", model=WORDLLAMA,
                                                      rows=rows))

    async with db.driver.session(database=db.name) as session:
        deleting = await session.begin_transaction()  # holds the node's lock until commit
        await deleting.run("MATCH (n) WHERE elementId(n) = $id DETACH DELETE n",
                           id=made[0]["id"])
        storing = asyncio.create_task(store())
        await asyncio.sleep(1.0)  # the store has met the node and waits for its lock
        assert not storing.done()
        await deleting.commit()
    assert (await storing)[0]["cleared"] == 0  # run again: the node is gone, nothing else
