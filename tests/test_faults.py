"""Operators' faults over a real `graphmem serve` on a Neo4j of this module's own, whose store
lives on a small tmpfs: a Neo4j that stops answering while requests are in flight (issue 36,
item 17) and a disk that fills up (item 18). Each costs real Neo4j starts (about 40 s each),
so both share one server, the frozen one first: the full disk ends with a restart."""

from __future__ import annotations

import asyncio
import errno
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from graphmem.core.config import Settings
from graphmem.db.database import Database, connect
from graphmem.local_neo4j import LocalNeo4j
from graphmem.security.auth import create_key
from tests.support import ROOT, server
from tests.support.http import HTTP

pytestmark = pytest.mark.own_processes  # bin/test runs it beside the rest

MAX_RETRY_S, TIMEOUT_S = 2.0, 5.0
BUDGET_S = MAX_RETRY_S + TIMEOUT_S  # a request's worst case while Neo4j is away
SLACK_S = 2.0  # scheduling on two shared CPUs, the HTTP round trip
RECORD = """mutation($ns: String!, $eps: [EpisodeInput!]!) { recordEpisodes(namespace: $ns,
  episodes: $eps) { created duplicates } }"""
EPISODES = "query($ns: String!) { episodes(namespace: $ns, first: 5) { nodes { id } } }"


class _SmallStoreNeo4j(LocalNeo4j):
    """Transaction logs written as they grow, not preallocated (256 MB a file by default,
    more than the whole tmpfs), so a write really meets the full disk."""

    def _write_conf(self) -> None:
        super()._write_conf()
        conf = self.home / "conf" / "neo4j.conf"
        conf.write_text(conf.read_text("utf-8") + "db.tx_log.preallocate=false\n"
                        "db.tx_log.rotation.size=1M\n", "utf-8")


@dataclass
class Faulty:
    neo4j: LocalNeo4j
    url: str
    token: str

    @property
    def data(self) -> Path:
        return self.neo4j.home / "data"

    def post(self, query: str, timeout: float = 60.0, **variables: Any) -> httpx.Response:
        return HTTP.post(f"{self.url}/graphql", json={"query": query, "variables": variables},
                          headers={"Authorization": f"Bearer {self.token}"}, timeout=timeout)


def _mount_tmpfs(path: Path, size: str) -> None:
    path.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs",
                           str(path)], capture_output=True, text=True, check=False)
    if done.returncode != 0:  # the test needs a disk it can fill: fail, never skip
        pytest.fail(f"cannot mount a tmpfs at {path} (run as root): {done.stderr.strip()}")


def _settings(neo4j: LocalNeo4j) -> Settings:
    return Settings(neo4j_uri=neo4j.bolt_uri, neo4j_password=neo4j.password(),
                    neo4j_max_retry_s=MAX_RETRY_S, neo4j_timeout_s=TIMEOUT_S)


async def _with_db(neo4j: LocalNeo4j, work: Any) -> Any:
    db: Database = await connect(_settings(neo4j))
    try:
        return await work(db)
    finally:
        await db.close()


@pytest.fixture(scope="module")
def faulty(local_neo4j: LocalNeo4j) -> Iterator[Faulty]:
    home = ROOT / ".graphmem" / "test-full-disk" / "neo4j"  # its jars are kept between runs
    neo4j = _SmallStoreNeo4j(home=home, bolt_port=server.free_port(),
                             http_port=server.free_port(), heap="256m", pagecache="32m",
                             jvm_options=local_neo4j.jvm_options)
    _mount_tmpfs(home / "data", "64M")
    try:
        neo4j.start()
        env = {"GRAPHMEM_NEO4J_URI": neo4j.bolt_uri, "GRAPHMEM_NEO4J_PASSWORD": neo4j.password(),
               "GRAPHMEM_NEO4J_MAX_RETRY_S": str(MAX_RETRY_S),
               "GRAPHMEM_NEO4J_TIMEOUT_S": str(TIMEOUT_S),
               "GRAPHMEM_AUTH_CACHE_S": "0",  # every request looks its key up in Neo4j
               "GRAPHMEM_EMBEDDER": "none", "GRAPHMEM_WORKERS": "0"}
        with server.serving(**env) as url:  # it applies the migrations before it is ready
            token = asyncio.run(_with_db(neo4j, lambda db: create_key(
                db, "faults", grants=["*"], admin=True)))
            yield Faulty(neo4j, url, token)
    finally:
        neo4j.stop()
        subprocess.run(["umount", str(home / "data")], check=False)
        shutil.rmtree(home / "data", ignore_errors=True)


def _turns(tag: str, n: int = 3) -> list[dict[str, Any]]:
    return [{"externalId": f"{tag}-{i}", "sessionId": tag, "kind": "USER_MESSAGE",
             "actor": "user", "content": f"turn {i} of {tag}",
             "occurredAt": "2026-05-01T10:00:00Z"} for i in range(n)]


def _error(response: httpx.Response) -> dict[str, Any]:
    """The one typed error of an answer: the gate's (a 503) or a resolver's (a 200)."""
    body = response.json()
    assert body.get("errors"), body
    return {"status": response.status_code, "message": body["errors"][0]["message"],
            **(body["errors"][0].get("extensions") or {})}


async def _stored(neo4j: LocalNeo4j, ns: str) -> list[str]:
    async def read(db: Database) -> list[str]:
        rows, _, _ = await db.driver.execute_query(
            "MATCH (e:Episode {ns: $ns}) RETURN e.external_id AS id ORDER BY id", {"ns": ns},
            database_=db.name)
        return [row["id"] for row in rows]

    return list(await _with_db(neo4j, read))


@pytest.mark.hostile("faults")
async def test_a_neo4j_that_stops_answering_is_answered_within_the_budget(
        faulty: Faulty) -> None:
    """Issue 36, item 17: with Neo4j frozen (SIGSTOP) under requests, each request in flight
    or arriving gets DATABASE_UNAVAILABLE (retryable) within max_retry_s plus one statement
    bound, not when Neo4j comes back; once it does, the same writes land once."""
    ns = "faults/frozen"
    _warm(faulty, ns)
    pid = faulty.neo4j.status().pid
    assert pid is not None
    answers: list[tuple[float, httpx.Response | Exception]] = []
    loop = asyncio.get_running_loop()

    def ask(n: int) -> None:
        started = time.monotonic()
        try:
            if n % 2:
                answer: httpx.Response | Exception = faulty.post(
                    RECORD, timeout=30, ns=ns, eps=_turns(f"frozen{n}"))
            else:
                answer = faulty.post(EPISODES, timeout=30, ns=ns)
        except httpx.HTTPError as exc:
            answer = exc
        answers.append((time.monotonic() - started, answer))

    os.kill(pid, signal.SIGSTOP)
    try:
        requests = [loop.run_in_executor(None, ask, n) for n in range(6)]
        await asyncio.sleep(1.0)  # some arrive while others wait
        requests += [loop.run_in_executor(None, ask, n) for n in range(6, 8)]
        await asyncio.wait_for(asyncio.gather(*requests), timeout=40)
    finally:
        os.kill(pid, signal.SIGCONT)
    assert len(answers) == 8
    for elapsed, answer in answers:
        assert isinstance(answer, httpx.Response), f"{answer!r} after {elapsed:.1f} s"
        error = _error(answer)
        assert error.get("code") == "DATABASE_UNAVAILABLE" and error.get("retryable"), error
        assert elapsed <= BUDGET_S + SLACK_S, f"answered after {elapsed:.1f} s: {error}"
    # Neo4j answers again: every write is sent again (the client's retry) and lands once.
    for n in range(1, 8, 2):
        for _ in range(60):
            if not _error_or_none(faulty.post(RECORD, ns=ns, eps=_turns(f"frozen{n}"))):
                break
            await asyncio.sleep(0.5)
    stored = await _stored(faulty.neo4j, ns)
    expected = sorted(e["externalId"] for n in ["warm", *(f"frozen{k}" for k in range(1, 8, 2))]
                      for e in _turns(n))
    assert stored == expected  # nothing lost, nothing twice


def _warm(faulty: Faulty, ns: str) -> None:
    """A fresh Neo4j plans each statement the first time it runs, which may take longer than
    this module's short statement bound: plan the ones the tests send."""
    for _ in range(10):
        if not (_error_or_none(faulty.post(RECORD, ns=ns, eps=_turns("warm")))
                or _error_or_none(faulty.post(EPISODES, ns=ns))):
            return
    pytest.fail("the fresh Neo4j never answered within the statement bound")


def _error_or_none(response: httpx.Response) -> dict[str, Any] | None:
    return _error(response) if response.json().get("errors") else None


def _fill(disk: Path) -> Path:
    filler = disk / "filler"
    with open(filler, "wb") as out:
        try:
            while True:
                out.write(b"\0" * (1 << 20))
                out.flush()
        except OSError as exc:
            assert exc.errno == errno.ENOSPC, exc
    return filler


@pytest.mark.hostile("faults")
async def test_a_full_disk_is_typed_and_not_ready_until_neo4j_writes_again(
        faulty: Faulty) -> None:
    """Issue 36, item 18: Neo4j's disk full, so it fails a write and then every transaction.
    Writes and key lookups are typed DATABASE_UNAVAILABLE naming the fix (they were INTERNAL
    and a bare HTTP 500), and /readyz says not ready and why (it said ready) until Neo4j
    writes again. Here a restart with room is not enough: the append the full disk cut short
    left a torn entry in the transaction log, and Neo4j 5.26 refuses to recover the store
    ("Error reading transaction logs, recovery not possible"); /readyz goes on saying so
    until the store is restored (here: a new, empty one), and then says ready by itself."""
    ns = "faults/full"
    _warm(faulty, ns)
    assert HTTP.get(f"{faulty.url}/readyz").status_code == 200
    filler = _fill(faulty.data)
    try:
        write = faulty.post(RECORD, ns=ns, eps=_turns("lost"))
        assert write.status_code in (200, 503), write.text
        error = _error(write)
        assert error.get("code") == "DATABASE_UNAVAILABLE" and error.get("retryable"), error
        assert "disk" in error["message"] and "restart" in error["message"], error
        lookup = faulty.post(EPISODES, ns=ns)  # its key is looked up in Neo4j (no cache)
        assert lookup.status_code == 503, lookup.text
        assert _error(lookup).get("code") == "DATABASE_UNAVAILABLE", lookup.text
        ready = HTTP.get(f"{faulty.url}/readyz", timeout=10)
        assert ready.status_code == 503, ready.text
        assert "Neo.DatabaseError" in ready.json()["reason"], ready.json()
        assert "turn 0 of" not in ready.text  # no stored value
    finally:
        filler.unlink()
    # Room again. Whether Neo4j writes again depends on where the full disk cut its last
    # append: sometimes it does at once; a torn entry in its transaction log makes Neo4j 5.26
    # refuse to recover the store ("recovery not possible"), before a restart and after it,
    # until the store is restored (here: a new, empty one). /readyz follows, by itself.
    repairs: list[tuple[Callable[[], None], float]] = [
        (_nothing, 10), (_restart(faulty), 10), (_restore(faulty), 30)]
    for repair, wait_s in repairs:
        repair()
        if await _ready_within(faulty.url, wait_s):
            return
        reason = HTTP.get(f"{faulty.url}/readyz", timeout=10).json()["reason"]
        assert "Neo.DatabaseError" in reason or "unreachable" in reason, reason
    pytest.fail(f"not ready once Neo4j writes: {HTTP.get(f'{faulty.url}/readyz').text}")


def _nothing() -> None:
    """Room again, and nothing more."""


def _restart(faulty: Faulty) -> Callable[[], None]:
    def restart() -> None:
        faulty.neo4j.stop()
        faulty.neo4j.start()
    return restart


def _restore(faulty: Faulty) -> Callable[[], None]:
    def restore() -> None:
        faulty.neo4j.stop()
        for part in faulty.data.iterdir():  # the store restored: a new one
            shutil.rmtree(part) if part.is_dir() else part.unlink()
        faulty.neo4j.start()
    return restore


async def _ready_within(url: str, seconds: float) -> bool:
    """By the clock: a /readyz that retries a failed store takes seconds to answer, and
    counting 20 tries of a 10-second wait took 50 s."""
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            if HTTP.get(f"{url}/readyz", timeout=max(left, 1)).status_code == 200:
                return True
        except httpx.TimeoutException:
            return False
        await asyncio.sleep(0.5)
    return False
