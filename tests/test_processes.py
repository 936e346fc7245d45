"""Several `graphmem serve` processes on one database, as a user who outgrew one runs them:
work is claimed so no two processes do it twice, a write through one is read through the
other at once, and the per-key rate limit holds across them. Embedding can leave the serving
processes for a `graphmem worker`.

The embedding queue is service-wide, and these tests count what each process embeds: they run
on a Neo4j of their own, so no other embedder takes part (the suite's in-process app, another
suite sharing the test Neo4j, a test calling `embed_all_pending`: any of them took 144 of the
400 turns the processes were counted on)."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import ExitStack, contextmanager

import httpx
import pytest

from graphmem.core.config import Settings
from graphmem.db import migrations
from graphmem.db.database import Database, connect
from graphmem.local_neo4j import LocalNeo4j
from graphmem.security.auth import create_key
from tests.support import ROOT
from tests.support.documents import RECORD, said
from tests.support.server import free_port, serving

pytestmark = pytest.mark.own_processes  # bin/test runs it beside the rest

PROCESSES = 2
SEARCH = """query($ns: String!, $q: String!) { search(namespace: $ns, query: $q,
  kinds: [EPISODE]) { hits { episode { externalId } } } }"""


@pytest.fixture(scope="module")
def own_settings(settings: Settings) -> Iterator[Settings]:
    """A Neo4j of this module's own (free ports, a home in this checkout), started and
    thrown away with its data at the end."""
    home = ROOT / ".graphmem" / f"test-processes-{uuid.uuid4().hex[:8]}"
    own = Settings(**{**settings.model_dump(), "home": home, "local_bolt_port": free_port(),
                      "local_http_port": free_port()})
    server = LocalNeo4j.from_settings(own)
    server.start()
    try:
        yield own
    finally:
        server.stop()
        shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="module")
async def db(own_settings: Settings) -> AsyncIterator[Database]:
    database = await connect(own_settings)
    await migrations.apply(database)
    yield database
    await database.close()


@pytest.fixture(scope="module")
async def admin_token(db: Database) -> str:
    return await create_key(db, "processes-admin", grants=[], admin=True)


@pytest.fixture
def ns() -> str:
    return f"test/{uuid.uuid4().hex[:12]}"  # the whole database goes at the end


@contextmanager
def processes(own: Settings, **env: str) -> Iterator[list[str]]:
    """Two service processes sharing this module's Neo4j."""
    on_own = {"GRAPHMEM_HOME": str(own.home), "GRAPHMEM_LOCAL_BOLT_PORT": str(
        own.local_bolt_port), "GRAPHMEM_LOCAL_HTTP_PORT": str(own.local_http_port)}
    with ExitStack() as stack:
        yield [stack.enter_context(serving(GRAPHMEM_PROCESSES=str(PROCESSES), **on_own, **env))
               for _ in range(PROCESSES)]


@pytest.fixture(scope="module")
def services(own_settings: Settings, db: Database) -> Iterator[list[str]]:
    with processes(own_settings, GRAPHMEM_EMBEDDING_WORKER="true") as urls:
        yield urls


async def _post(url: str, token: str, query: str, **variables: object) -> httpx.Response:
    async with httpx.AsyncClient(timeout=30) as http:
        return await http.post(f"{url}/graphql", json={"query": query, "variables": variables},
                               headers={"Authorization": f"Bearer {token}"})


async def _embedded(url: str) -> float:
    async with httpx.AsyncClient() as http:
        text = (await http.get(f"{url}/metrics")).text
    found = re.search(r"^graphmem_embedded_nodes_total (\S+)$", text, re.MULTILINE)
    return float(found.group(1)) if found else 0.0


async def _drained(db: Database) -> None:
    """Until nothing waits for an embedding (a minute at most)."""
    for _ in range(600):
        if not (await db.read("retrieval/embeddings/pending_count"))[0]["pending"]:
            return
        await asyncio.sleep(0.1)
    raise AssertionError("the embedding queue did not drain")


async def _counted(services: list[str], before: list[float], expected: int) -> list[float]:
    """What each process embedded since ``before``, once the counts add up to ``expected``
    (ten seconds at most), read again a moment later so a node embedded twice would show.
    The queue drains when a batch's store commits; the process counts the batch just after,
    so a count read the moment the queue is empty can miss a whole batch."""
    async def done() -> list[float]:
        return [after - was for after, was in zip([await _embedded(u) for u in services],
                                                  before, strict=True)]
    for _ in range(100):
        if sum(await done()) >= expected:
            break
        await asyncio.sleep(0.1)
    await asyncio.sleep(0.5)
    return await done()


# First: the module's `services` (which embed) are not started yet.
async def test_a_worker_process_embeds_for_serving_processes_that_do_not(
        own_settings: Settings, db: Database, admin_token: str, ns: str) -> None:
    env = {**os.environ, "GRAPHMEM_LOG_LEVEL": "WARNING", "GRAPHMEM_WORKERS": "0",
           "GRAPHMEM_HOME": str(own_settings.home),
           "GRAPHMEM_LOCAL_BOLT_PORT": str(own_settings.local_bolt_port),
           "GRAPHMEM_LOCAL_HTTP_PORT": str(own_settings.local_http_port)}
    with processes(own_settings, GRAPHMEM_EMBEDDING_WORKER="false") as (a, b):
        turns = [said(f"v{i}", f"2026-05-03T10:00:{i:02d}Z", f"the otter raft number {i:02d}")
                 for i in range(50)]
        assert "errors" not in (await _post(a, admin_token, RECORD, ns=ns, eps=turns)).json()
        await asyncio.sleep(1)
        waiting = await db.read("retrieval/embeddings/pending_count")
        assert waiting[0]["pending"] >= 50  # nobody embeds
        worker = subprocess.Popen([sys.executable, "-m", "graphmem", "worker"], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            await _drained(db)  # the worker alone empties the queue
        finally:
            worker.terminate()
            worker.wait(timeout=20)
        assert [await _embedded(url) for url in (a, b)] == [0.0, 0.0]


async def test_no_node_is_embedded_twice_and_each_is_found_through_the_other(
        services: list[str], db: Database, admin_token: str, ns: str) -> None:
    a, b = services
    # The processes' workers share the service-wide queue (only they embed in this database).
    await _drained(db)
    before = [await _embedded(url) for url in services]
    turns = [said(f"t{i}", f"2026-05-01T10:{i // 60:02d}:{i % 60:02d}Z",
                  f"turn {i} about the walrus colony number {i:03d}") for i in range(400)]
    for start in range(0, len(turns), 100):
        response = await _post(a, admin_token, RECORD, ns=ns, eps=turns[start:start + 100])
        assert "errors" not in response.json(), response.text
    await _drained(db)
    done = await _counted(services, before, len(turns))
    # Every node at most once: a second claim would count it twice. (The claim itself is
    # tested without processes: tests/retrieval/test_embeddings.py.)
    assert sum(done) == len(turns)
    found = (await _post(b, admin_token, SEARCH, ns=ns, q="walrus colony number 007")).json()
    top = [hit["episode"]["externalId"] for hit in found["data"]["search"]["hits"][:3]]
    assert "t7" in top  # (its neighbours share its words through their windows)


async def test_the_per_key_limit_holds_across_processes(own_settings: Settings, db: Database,
                                                        admin_token: str) -> None:
    allowed = 0
    with processes(own_settings, GRAPHMEM_RATE_LIMIT_PER_MINUTE="6") as limited:
        for i in range(24):  # a balancer spreading one key's requests over both processes
            response = await _post(limited[i % PROCESSES], admin_token,
                                   "query { viewer { name } }")
            allowed += response.status_code == 200
    assert 6 <= allowed <= 7  # 6 a minute in all: 3 each, and a little refill meanwhile


async def test_a_write_through_one_process_is_read_through_the_other_at_once(
        services: list[str], db: Database, admin_token: str, ns: str) -> None:
    a, b = services
    for i in range(5):
        await _post(a, admin_token, RECORD, ns=ns,
                    eps=[said(f"w{i}", f"2026-05-02T10:00:0{i}Z", f"the heron number {i}")])
        read = (await _post(b, admin_token, """query($ns: String!) {
            episodes(namespace: $ns, first: 50) { nodes { externalId } } }""", ns=ns)).json()
        assert f"w{i}" in {n["externalId"] for n in read["data"]["episodes"]["nodes"]}

