"""Shared fixtures: one real local Neo4j for the whole run, a fresh namespace per test.

Tests use their own Neo4j home and ports (below), so they never touch `bin/serve`'s data.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from neo4j import Record
from neo4j.exceptions import TransientError
from starlette.applications import Starlette

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("GRAPHMEM_HOME", str(ROOT / ".graphmem" / "test"))
os.environ.setdefault("GRAPHMEM_LOCAL_BOLT_PORT", "17687")
os.environ.setdefault("GRAPHMEM_LOCAL_HTTP_PORT", "17474")
# The suite's admin key makes hundreds of requests a minute; the limiter has its own tests.
os.environ.setdefault("GRAPHMEM_RATE_LIMIT_PER_MINUTE", "0")
# Tests run pipeline jobs themselves (a Worker, or `wait: true`), so no pool races them.
os.environ.setdefault("GRAPHMEM_WORKERS", "0")

from graphmem.core.config import Settings, get_settings  # noqa: E402
from graphmem.db import database as db_module  # noqa: E402
from graphmem.db import migrations  # noqa: E402
from graphmem.db.database import Database, connect  # noqa: E402
from graphmem.local_neo4j import LocalNeo4j  # noqa: E402
from graphmem.security.auth import create_key  # noqa: E402


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
    database = await connect(settings)
    await migrations.apply(database)
    yield database
    await database.close()


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


async def delete_namespace(db: Database, name: str) -> None:
    """Delete the namespace; the service's embedding worker may still be writing to it, so a
    deadlock with it is retried rather than failing the test that just passed."""
    for attempt in range(5):
        try:
            async with db.driver.session(database=db.name) as session:  # auto-commit
                result = await session.run(
                    "MATCH (n {ns: $ns}) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 1000 ROWS",
                    {"ns": name})
                await result.consume()
            return
        except TransientError:
            if attempt == 4:
                raise
            await asyncio.sleep(0.2 * (attempt + 1))


class GraphQLClient:
    """Posts GraphQL with a key and returns (data, errors) for terse assertions."""

    def __init__(self, http: httpx.AsyncClient, token: str | None) -> None:
        self.http, self.token = http, token

    async def __call__(self, query: str, **variables: Any) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        response = await self.http.post("/graphql", json={"query": query, "variables": variables},
                                        headers=headers)
        body: dict[str, Any] = response.json()
        return body

    async def ok(self, query: str, **variables: Any) -> dict[str, Any]:
        body = await self(query, **variables)
        assert not body.get("errors"), body.get("errors")
        data: dict[str, Any] = body["data"]
        return data


@pytest.fixture
def gql(client: httpx.AsyncClient, admin_token: str) -> GraphQLClient:
    return GraphQLClient(client, admin_token)


async def graph_size(db: Database) -> tuple[int, int]:
    """(nodes, relationships) of memory in the whole database, for "wrote nothing" checks.
    Audit events are left out: a refused mutation is still audited, by design."""
    records, _, _ = await db.driver.execute_query(
        "CALL { MATCH (n) WHERE NOT n:AuditEvent RETURN count(n) AS nodes } "
        "CALL { MATCH ()-[r]->() RETURN count(r) AS rels } RETURN nodes, rels", database_=db.name)
    return records[0]["nodes"], records[0]["rels"]


async def namespace_contents(db: Database, ns: str) -> list[str]:
    """Every node and relationship of ``ns``, properties included (the embedding worker's
    own changes left out), for "wrote nothing" checks that also see updates. Properties are
    compared sorted: Neo4j returns a map's keys in no fixed order."""
    records, _, _ = await db.driver.execute_query(
        "MATCH (n) WHERE n.ns = $ns "
        "RETURN elementId(n) AS id, [l IN labels(n) WHERE l <> 'EmbedPending'] AS labels, "
        "properties(n) AS props, "
        "[(n)-[r]->(m) | [type(r), properties(r), elementId(m)]] AS out", {"ns": ns},
        database_=db.name)
    return sorted(repr((r["id"], r["labels"], _sorted_properties(r["props"]),
                        sorted(repr((kind, _sorted_properties(props), to))
                               for kind, props, to in r["out"])))
                  for r in records)


def _sorted_properties(props: dict[str, Any]) -> list[tuple[str, Any]]:
    return sorted((k, v) for k, v in props.items() if k != "embedding")
