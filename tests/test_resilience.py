"""Load and faults, bounded and on loopback: concurrent clients mixing writes and reads lose
and duplicate nothing; a Neo4j stopped and restarted mid-ingest gives clients retryable typed
errors, the service recovers by itself, and idempotent retries leave exactly one copy of
everything. (A worker killed mid-job is in tests/pipelines/test_worker.py.)"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import random
import shutil
import threading
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from graphmem.app import create_app
from graphmem.core.config import Settings
from graphmem.db import migrations
from graphmem.db.database import Database, connect
from graphmem.local_neo4j import LocalNeo4j
from graphmem.security.auth import create_key
from tests.support import ROOT
from tests.support.client import GraphQLClient

OPERATIONS_PER_CLIENT = 12  # half of them writes of 10 turns, a fifth of those retries
RECORD = """mutation($ns: String!, $eps: [EpisodeInput!]!) { recordEpisodes(namespace: $ns,
  episodes: $eps) { created duplicates } }"""
READS: list[tuple[str, dict[str, Any]]] = [
    ('query($ns: String!) { search(namespace: $ns, query: "moved to city") { hits { kind } } }',
     {}),
    ('query($ns: String!) { recall(namespace: $ns, query: "Where do I live?") { tokensUsed } }',
     {}),
    ('query($ns: String!) { facts(namespace: $ns, first: 20) { nodes { text } } }', {}),
    ('query($ns: String!) { episodes(namespace: $ns, first: 20) { nodes { id } } }', {}),
]


def _batch(client: int, n: int, size: int = 10) -> list[dict[str, Any]]:
    return [{"externalId": f"c{client}-b{n}-{i}", "sessionId": f"c{client}",
             "kind": "USER_MESSAGE", "actor": "user",
             "content": f"client {client} turn {n}.{i}: I moved to city {n % 7}",
             "occurredAt": f"2026-05-01T{n % 24:02d}:{i:02d}:00Z"} for i in range(size)]


def _digest(episodes: list[dict[str, Any]]) -> str:
    return hashlib.sha256("\n".join(sorted(f"{e['externalId']}={e['content']}"
                                           for e in episodes)).encode()).hexdigest()


async def _stored(db: Database, ns: str) -> list[dict[str, Any]]:
    rows, _, _ = await db.driver.execute_query(
        "MATCH (e:Episode {ns: $ns}) RETURN e.external_id AS externalId, e.content AS content",
        {"ns": ns}, database_=db.name)
    return [dict(r) for r in rows]


async def test_concurrent_clients_lose_and_duplicate_nothing(gql: GraphQLClient, db: Database,
                                                             ns: str) -> None:
    sent: dict[str, dict[str, Any]] = {}
    errors: list[Any] = []

    async def client(number: int) -> None:  # a count of requests, not a time: the same
        rng, n = random.Random(number), 0  # work however busy the machine is
        for _ in range(OPERATIONS_PER_CLIENT):
            if rng.random() < 0.5:
                batch = _batch(number, n if rng.random() < 0.8 else max(0, n - 1))  # retries
                n += 1
                body = await gql(RECORD, ns=ns, eps=batch)
                if not body.get("errors"):
                    sent.update({e["externalId"]: e for e in batch})
            else:
                query, _ = rng.choice(READS)
                body = await gql(query, ns=ns)
            errors.extend(body.get("errors") or [])

    await asyncio.gather(*(client(i) for i in range(8)))
    assert errors == []
    stored = await _stored(db, ns)
    assert len(stored) == len(sent) > 100  # no episode lost, none twice
    assert _digest(stored) == _digest(list(sent.values()))


@pytest.fixture(scope="module")
def faulty_neo4j(local_neo4j: LocalNeo4j) -> Any:
    """A Neo4j of this test's own, so stopping it disturbs no other test."""
    home = ROOT / ".graphmem" / "test-faults"
    server = dataclasses.replace(local_neo4j, home=home / "neo4j", bolt_port=17688,
                                 http_port=17475)  # the suite's settings, its own home
    server.start()
    yield server
    server.stop()
    shutil.rmtree(home / "neo4j" / "data", ignore_errors=True)


@pytest.fixture
async def faulty_app(settings: Settings, faulty_neo4j: LocalNeo4j) -> AsyncIterator[Any]:
    fault_settings = Settings(**{**settings.model_dump(),
                                 "home": faulty_neo4j.home.parent, "local_bolt_port": 17688,
                                 "local_http_port": 17475, "embedder": "none", "workers": 0,
                                 "neo4j_max_retry_s": 1.0})
    db = await connect(fault_settings)
    await migrations.apply(db)
    app = create_app(fault_settings)
    async with app.router.lifespan_context(app):
        while not app.state.runtime.ready:
            await asyncio.sleep(0.1)
        token = await create_key(db, "faults", grants=["*"], admin=True)
        yield app, db, token
    await db.close()


@pytest.mark.own_processes  # bin/test runs it beside the rest (a Neo4j of its own)
async def test_neo4j_restarting_mid_ingest_loses_nothing(faulty_app: Any,
                                                          faulty_neo4j: LocalNeo4j) -> None:
    app, db, token = faulty_app
    ns, codes = "faults/ingest", []
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://graphmem.test",
                                 headers={"Authorization": f"Bearer {token}"}) as http:
        gql = GraphQLClient(http, token)
        restarted = threading.Event()

        def bounce() -> None:
            faulty_neo4j.stop()
            faulty_neo4j.start()
            restarted.set()

        batches = [_batch(0, n) for n in range(40)]
        for n, batch in enumerate(batches):
            if n == 10:
                threading.Thread(target=bounce, daemon=True).start()
            for _ in range(600):  # retry the same batch (same externalIds) until it lands
                body = await gql(RECORD, ns=ns, eps=batch)
                if not body.get("errors"):
                    break
                codes.append({**(body["errors"][0].get("extensions") or {}),
                              "message": body["errors"][0].get("message")})
                await asyncio.sleep(0.1)
            else:
                pytest.fail(f"batch {n} never landed: {codes[-1]}")
        assert restarted.wait(60)
        ready = await http.get("/readyz")
        assert ready.status_code == 200  # recovered without a restart of the service
    assert codes, "the outage was not observed: make it longer"
    assert {c.get("code") for c in codes} == {"DATABASE_UNAVAILABLE"}, codes
    assert all(c.get("retryable") for c in codes)
    stored = await _stored(db, ns)
    assert len(stored) == 400 and _digest(stored) == _digest(
        [e for batch in batches for e in batch])
