"""Shared fixtures: one real local Neo4j for the whole run, a fresh namespace per test.

Tests use their own Neo4j home and ports (below), so they never touch `bin/serve`'s data.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import AsyncIterator, Generator, Iterator
from typing import Any

import httpx
import pytest
from neo4j import Record
from starlette.applications import Starlette

from tests.support import ROOT

os.environ.setdefault("GRAPHMEM_HOME", str(ROOT / ".graphmem" / "test"))
os.environ.setdefault("GRAPHMEM_LOCAL_BOLT_PORT", "17687")
os.environ.setdefault("GRAPHMEM_LOCAL_HTTP_PORT", "17474")
# The suite's admin key makes hundreds of requests a minute; the limiter has its own tests.
os.environ.setdefault("GRAPHMEM_RATE_LIMIT_PER_MINUTE", "0")
# Tests run pipeline jobs themselves (a Worker, or `wait: true`), so no pool races them.
os.environ.setdefault("GRAPHMEM_WORKERS", "0")

from graphmem.core.config import Settings, get_settings
from graphmem.db import database as db_module
from graphmem.db import migrations
from graphmem.db.database import Database, connect
from graphmem.local_neo4j import LocalNeo4j
from graphmem.retrieval import background, embeddings
from graphmem.security.auth import create_key
from tests.support.client import GraphQLClient
from tests.support.graph import delete_namespace
from tests.support.server import log_tails

pytest_plugins = ["tests.support.hostile"]  # the hostile cases' table (bin/abuse)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item,
                              call: pytest.CallInfo[None]
                              ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A failing test's report carries the tail of every `graphmem serve` running for it."""
    report = yield
    if report.failed and (tails := log_tails()):
        report.sections.append(("graphmem serve logs", tails))
    return report


@pytest.fixture(scope="session", autouse=True)
def rows_are_plain() -> Iterator[None]:
    """``db.plain`` skips the driver's recursive ``Record.data()`` on the word that statements
    never return graph objects nested in lists or maps; every row the suite reads checks it."""
    shortcut = db_module.plain

    def checked(record: Record) -> dict[str, Any]:
        row = shortcut(record)
        assert row == record.data(), f"a graph object nested in a row: {record.keys()}"
        return row

    db_module.plain = checked
    yield
    db_module.plain = shortcut


@pytest.fixture(scope="session")
def settings() -> Settings:
    return get_settings()


@pytest.fixture(scope="session")
def local_neo4j(settings: Settings) -> LocalNeo4j:
    server = LocalNeo4j.from_settings(settings)
    server.start()
    return server


@pytest.fixture(scope="session")
async def db(settings: Settings, local_neo4j: LocalNeo4j) -> AsyncIterator[Database]:
    from graphmem.equipment import equipped  # here: a unit test needs no database

    database = equipped(await connect(settings), settings)  # its keys, its archive store
    await migrations.apply(database)
    # The vector space, as the app makes it at start: a test embedding the queue with no app
    # started yet had its vectors refused on a fresh store (the order-dependent failure of
    # test_new_memory_is_embedded_off_the_request_path).
    if (embedder := embeddings.make_embedder(settings)) is not None:
        await embeddings.ensure_space(database, embedder)
    yield database
    await database.close()
    background.stop(database)  # the process its embedding ran in, if it started one


@pytest.fixture(scope="session")
async def app(settings: Settings, db: Database) -> AsyncIterator[Starlette]:
    from graphmem.app import create_app  # here: a unit test needs neither the app nor its imports

    application = create_app(settings)
    async with application.router.lifespan_context(application):
        runtime = application.state.runtime
        for _ in range(600):
            if runtime.ready:
                break
            await asyncio.sleep(0.1)
        assert runtime.ready, runtime.problem
        yield application


@pytest.fixture(scope="session")
async def admin_token(db: Database) -> str:
    return await create_key(db, "tests-admin", grants=[], admin=True)


@pytest.fixture
async def client(app: Starlette) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://graphmem.test") as http:
        yield http


@pytest.fixture
async def ns(db: Database) -> AsyncIterator[str]:
    """A fresh namespace for one test, deleted afterwards so tests can share the server."""
    name = f"test/{uuid.uuid4().hex[:12]}"
    yield name
    await delete_namespace(db, name)


@pytest.fixture
async def other(db: Database) -> AsyncIterator[str]:
    """A second fresh namespace: another tenant, or where a copy is imported."""
    name = f"test/{uuid.uuid4().hex[:12]}"
    yield name
    await delete_namespace(db, name)


@pytest.fixture
def gql(client: httpx.AsyncClient, admin_token: str) -> GraphQLClient:
    return GraphQLClient(client, admin_token)


