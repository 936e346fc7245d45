"""Workers as they run for real: a `graphmem worker` process killed mid-job (the job
completes exactly once on restart), and the pool inside the service."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta

import pytest

from graphmem.core.config import Settings
from graphmem.core.errors import LLMError
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database
from graphmem.episodes import store as episodes
from graphmem.episodes.store import EpisodeKind, NewEpisode, Sensitivity
from graphmem.governance import retention
from graphmem.jobs import queue as jobs
from graphmem.jobs.queue import JobKind, JobState
from graphmem.pipelines.worker import Worker, _describe
from tests.support.chat_endpoint import Reply, chat_endpoint, facts_reply
from tests.support.graph import delete_namespace

FACT = {"episode": 1, "subject": "Dana", "predicate": "works_at", "object": "Initech",
        "object_is_entity": True, "confidence": 0.8, "quote": "Initech"}


def _worker(url: str, *args: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "GRAPHMEM_LLM_MODEL": "test-model", "GRAPHMEM_LLM_BASE_URL": url,
           "GRAPHMEM_JOB_LEASE_S": "2", "GRAPHMEM_LOG_LEVEL": "WARNING",
           "GRAPHMEM_EMBEDDING_WORKER": "false"}  # killed mid-claim, it would hold a lease
    return subprocess.Popen([sys.executable, "-m", "graphmem", "worker", *args], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


async def _state(db: Database, ns: str, job_id: str) -> jobs.Job:
    return (await jobs.by_ids(db, Namespace(ns), [job_id]))[job_id]


async def test_a_worker_killed_mid_job_leaves_it_to_complete_exactly_once(
        db: Database, ns: str) -> None:
    recorded = await episodes.record(db, Namespace(ns), [NewEpisode(
        content="I work at Initech.", kind=EpisodeKind.USER_MESSAGE, actor="Dana",
        occurred_at=datetime(2026, 5, 1, tzinfo=UTC))])
    queued = await jobs.enqueue(db, Namespace(ns), JobKind.EXTRACT,
                                [recorded.episodes[0].id])
    # The first call hangs (the model is slow); the worker is killed while waiting on it.
    with chat_endpoint(Reply(content="{}", delay_s=30), facts_reply(FACT)) as llm:
        first = _worker(llm.url)
        try:
            deadline = time.monotonic() + 60
            while not llm.seen and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            assert llm.seen, first.communicate()[1].decode() if first.poll() is not None else ""
            assert (await _state(db, ns, queued.id)).state is JobState.RUNNING
        finally:
            first.send_signal(signal.SIGKILL)
            first.wait()
        await asyncio.sleep(2.2)  # the dead worker's lease runs out

        second = _worker(llm.url, "--once")
        _, errors = second.communicate(timeout=120)
        assert second.returncode == 0, errors.decode()

    done = await _state(db, ns, queued.id)
    assert (done.state, done.attempts, done.stats.get("facts")) == (JobState.DONE, 2, 1)
    rows, _, _ = await db.driver.execute_query(
        "MATCH (f:Fact {ns: $ns}) RETURN count(f) AS facts", {"ns": ns}, database_=db.name)
    assert rows[0]["facts"] == 1
    edges, _, _ = await db.driver.execute_query(
        "MATCH (:Entity {ns: $ns})-[r:WORKS_AT]->() RETURN count(r) AS edges", {"ns": ns},
        database_=db.name)
    assert edges[0]["edges"] == 1


async def test_the_service_runs_a_worker_pool(db: Database, settings: Settings,
                                              ns: str) -> None:
    from graphmem.app import create_app
    from graphmem.jobs import switches

    pooled = Settings(**{**settings.model_dump(), "workers": 2})
    await switches.set_switches(db, Namespace(ns), pooled, True, None, "tests")
    application = create_app(pooled)
    async with application.router.lifespan_context(application):
        await episodes.record(db, Namespace(ns), [NewEpisode(
            content="My name is Dana and I live in Lisbon.", kind=EpisodeKind.USER_MESSAGE,
            occurred_at=datetime(2026, 5, 1, tzinfo=UTC))],
            jobs.Triggers.from_settings(pooled))
        for _ in range(200):
            page = await jobs.page(db, Namespace(ns), JobState.DONE, 5, None)
            if page.items:
                break
            await asyncio.sleep(0.1)
    assert page.items and page.items[0][1].stats["facts"] == 2


async def test_a_stopping_worker_hands_its_job_back(db: Database, settings: Settings,
                                                    ns: str) -> None:
    from graphmem.pipelines.worker import Worker

    recorded = await episodes.record(db, Namespace(ns), [NewEpisode(
        content="I work at Initech.", kind=EpisodeKind.USER_MESSAGE,
        occurred_at=datetime(2026, 5, 1, tzinfo=UTC))])
    queued = await jobs.enqueue(db, Namespace(ns), JobKind.EXTRACT, [recorded.episodes[0].id])
    with chat_endpoint(Reply(content="{}", delay_s=5)) as llm:
        worker = Worker(db, Settings(**{**settings.model_dump(),
                                        "llm_model": "m", "llm_base_url": llm.url}))
        task = asyncio.create_task(worker.run_one(queued.id))
        while not llm.seen:
            await asyncio.sleep(0.05)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    back = await _state(db, ns, queued.id)
    assert (back.state, back.attempts) == (JobState.QUEUED, 0)  # at once, not after the lease


async def test_a_long_job_keeps_its_lease(db: Database, settings: Settings, ns: str) -> None:
    from graphmem.pipelines.worker import Worker

    recorded = await episodes.record(db, Namespace(ns), [NewEpisode(
        content="I work at Initech.", kind=EpisodeKind.USER_MESSAGE,
        occurred_at=datetime(2026, 5, 1, tzinfo=UTC))])
    queued = await jobs.enqueue(db, Namespace(ns), JobKind.EXTRACT, [recorded.episodes[0].id])
    with chat_endpoint(facts_reply(FACT, delay_s=2.0)) as llm:
        worker = Worker(db, Settings(**{**settings.model_dump(),
                                        "llm_model": "m", "llm_base_url": llm.url,
                                        "job_lease_s": 0.6}))
        running = asyncio.create_task(worker.run_one(queued.id))
        await asyncio.sleep(1.2)  # two leases' worth: without renewal it would be reclaimed
        assert await jobs.reclaim_expired(db, max_attempts=5) == 0
        done = await running
    assert done is not None and (done.state, done.attempts) == (JobState.DONE, 1)


class _Only(Worker):
    """The worker's real loop, taking only this test's job (the suite's other tests run
    theirs themselves)."""

    def __init__(self, db: Database, settings: Settings, job_id: str) -> None:
        super().__init__(db, settings)
        self.job_id = job_id

    async def run_one(self, job_id: str | None = None) -> jobs.Job | None:
        return await super().run_one(job_id or self.job_id)


async def _old_turn(db: Database, ns: str, text: str) -> str:
    at = datetime.now(UTC) - timedelta(days=40)
    recorded = await episodes.record(db, Namespace(ns), [NewEpisode(
        text, EpisodeKind.USER_MESSAGE, at, session_id="s", sensitivity=Sensitivity.HEALTH)])
    return recorded.episodes[0].id


async def _ids(db: Database, ns: str) -> set[str]:
    rows, _, _ = await db.driver.execute_query(
        "MATCH (e:Episode {ns: $ns}) RETURN e.id AS id", {"ns": ns}, database_=db.name)
    return {row["id"] for row in rows}


@pytest.mark.hostile("tenants")
async def test_a_namespace_with_bad_stored_policies_stops_no_one_else(
        db: Database, settings: Settings, ns: str, caplog: pytest.LogCaptureFixture) -> None:
    """Issue 36 item 8: a retention policy an old import stored with ``action: "evil"`` made
    the worker's housekeeping raise on every loop, so no tenant's jobs or sweeps ran. Here
    namespace A holds such policies (retention and pruning, written as that import did);
    B's retention sweep and B's job still run, A's are reported and left as they are."""
    bad = f"{ns}-a"
    try:
        kept = await _old_turn(db, bad, "An old turn of A.")
        await db.driver.execute_query(
            "CREATE (:RetentionPolicy {ns: $ns, key: '*|*', max_age_s: 86400.0, "
            "  action: 'evil', keep_searchable: true}), "
            "(:RetentionPolicy {ns: $ns, key: 'user_message|*', kind: 'evil', "
            "  max_age_s: 86400.0, action: 'delete', keep_searchable: true}), "
            "(:PruningPolicy {ns: $ns, min_confidence: 0.5, unused_for_s: 'soon'})",
            {"ns": bad}, database_=db.name)
        due = await _old_turn(db, ns, "An old turn of B.")
        await retention.set_policy(db, Namespace(ns), retention.Policy(
            None, Sensitivity.HEALTH, timedelta(days=30), retention.Action.DELETE), "tests")
        fresh = await episodes.record(db, Namespace(ns), [NewEpisode(
            "My name is Dana and I live in Lisbon.", EpisodeKind.USER_MESSAGE,
            datetime.now(UTC), session_id="s")])
        queued = await jobs.enqueue(db, Namespace(ns), JobKind.EXTRACT,
                                    [fresh.episodes[0].id])

        loop = asyncio.create_task(_Only(db, settings, queued.id).run_forever(idle_s=0.1))
        try:
            for _ in range(150):  # the worker's own housekeeping comes first in its loop
                if (await _state(db, ns, queued.id)).state is JobState.DONE \
                        and due not in await _ids(db, ns):
                    break
                await asyncio.sleep(0.1)
        finally:
            loop.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await loop
        assert (await _state(db, ns, queued.id)).state is JobState.DONE
        assert await _ids(db, ns) == {fresh.episodes[0].id}  # B's sweep deleted the old turn

        assert await _ids(db, bad) == {kept}  # A: nothing applied, its policies left as stored
        stored, _, _ = await db.driver.execute_query(
            "MATCH (p {ns: $ns}) WHERE p:RetentionPolicy OR p:PruningPolicy "
            "RETURN count(CASE WHEN p.action = 'evil' OR p.kind = 'evil' "
            "OR p.unused_for_s = 'soon' THEN 1 END) AS bad", {"ns": bad}, database_=db.name)
        assert stored[0]["bad"] == 3
        said = [r.getMessage() for r in caplog.records if bad in r.getMessage()]
        assert any("retention policy" in m and "ValueError" in m for m in said), said
        assert any("pruning" in m and "TypeError" in m for m in said), said
        assert not any("evil" in m or "soon" in m for m in said)  # types, never stored values
    finally:
        await delete_namespace(db, bad)


def test_a_job_error_names_a_foreign_exception_by_its_type_only() -> None:
    """A driver's or library's message may quote memory content; graphmem's own messages
    never do: only those are kept on the job and in the log line."""
    assert _describe(ValueError("could not store 'I live in Lisbon'")) == "ValueError"
    assert _describe(LLMError("the LLM endpoint timed out")) == (
        "LLM_ERROR: the LLM endpoint timed out")
