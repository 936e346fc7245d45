"""The job queue over the real Neo4j: atomic claims, poison jobs, leases, retry (the retry
delay itself: tests/core/test_backoff.py)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from graphmem.core.config import Settings
from graphmem.core.errors import InvalidInput, LeaseLost
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database
from graphmem.events import outbox
from graphmem.events.outbox import EventKind
from graphmem.jobs import queue as jobs
from graphmem.jobs.queue import JobKind, JobState
from tests.support.client import GraphQLClient
from tests.support.documents import RECORD
from tests.support.graph import delete_namespace


def _settings(**overrides: object) -> Settings:
    return Settings(**{**Settings().model_dump(), **overrides})


async def _queue(db: Database, ns: str, count: int) -> list[str]:
    return [(await jobs.enqueue(db, Namespace(ns), JobKind.SUMMARIZE_NAMESPACE, [])).id
            for _ in range(count)]


async def _work(db: Database, worker: str, mine: set[str], done: list[str]) -> list[str]:
    """Claim and finish jobs like a worker until all of ``mine`` are done."""
    taken: list[str] = []
    deadline = asyncio.get_running_loop().time() + 60
    while len(done) < len(mine) and asyncio.get_running_loop().time() < deadline:
        claim = await jobs.claim(db, worker, 60)
        if claim is None:
            await asyncio.sleep(0.01)
            continue
        async def work(tx, claim=claim):  # type: ignore[no-untyped-def]
            await jobs.own(tx, claim)
            return await jobs.finish(tx, claim, {"summaries": 0}, [], [])
        await db.transaction(work)
        if claim.job.id in mine:
            taken.append(claim.job.id)
            done.append(claim.job.id)
    return taken


async def test_concurrent_workers_never_take_the_same_job(db: Database, ns: str) -> None:
    users = [f"{ns}/{i}" for i in range(6)]
    try:
        queued = {job_id for user in users for job_id in await _queue(db, user, 5)}
        done: list[str] = []
        taken = await asyncio.gather(*(_work(db, f"w{i}", queued, done) for i in range(6)))
        flat = [job_id for batch in taken for job_id in batch]
        assert sorted(flat) == sorted(queued)  # every job once, none twice
        assert sum(1 for batch in taken if batch) > 1  # and the work was really shared
    finally:
        for user in users:
            await delete_namespace(db, user)


async def test_one_namespace_runs_one_job_at_a_time_in_order(db: Database, ns: str) -> None:
    first, second, third = await _queue(db, ns, 3)
    claim = await jobs.claim(db, "w1", 60)
    assert claim is not None and claim.job.id == first
    assert await jobs.claim(db, "w2", 60) is None  # the namespace is busy
    assert await jobs.claim(db, "w2", 60, third) is None  # even for a job asked for by id
    failed = await jobs.fail(db, claim, "LLM_ERROR: 429", _settings(job_backoff_s=60))
    assert failed is not None and failed.state is JobState.QUEUED
    assert await jobs.claim(db, "w2", 60) is None  # the first one backs off: the rest wait
    asked = await jobs.claim(db, "w2", 60, third)  # `wait: true` may pass queued ones
    assert asked is not None and asked.job.id == third
    assert second  # still queued, behind the first


async def test_a_failure_backs_off_then_fails_for_good(db: Database, ns: str) -> None:
    settings = _settings(job_max_attempts=2, job_backoff_s=1.0, job_backoff_cap_s=1.0)
    [job_id] = await _queue(db, ns, 1)
    first = await jobs.claim(db, "w", 60, job_id)
    assert first is not None and first.attempt == 1
    failed = await jobs.fail(db, first, "LLM_ERROR: the LLM endpoint timed out", settings)
    assert failed is not None and failed.state is JobState.QUEUED
    assert first.job.started_at is not None and failed.not_before is not None
    assert failed.not_before >= first.job.started_at + timedelta(seconds=0.5)
    assert await jobs.claim(db, "w", 60, job_id) is None  # still backing off
    await asyncio.sleep(1.0)
    second = await jobs.claim(db, "w", 60, job_id)
    assert second is not None and second.attempt == 2
    final = await jobs.fail(db, second, "LLM_ERROR: again", settings)
    assert final is not None and final.state is JobState.FAILED
    assert final.error == "LLM_ERROR: again" and final.finished_at is not None

    again = await jobs.retry(db, Namespace(ns), job_id)
    assert again.state is JobState.QUEUED and again.attempts == 0
    third = await jobs.claim(db, "w", 60, job_id)
    assert third is not None and third.attempt == 1


async def test_an_error_that_cannot_pass_fails_at_once(db: Database, ns: str) -> None:
    [job_id] = await _queue(db, ns, 1)
    claim = await jobs.claim(db, "w", 60, job_id)
    assert claim is not None
    failed = await jobs.fail(db, claim, "LLM_ERROR: the LLM refused to answer", _settings(),
                             final=True)
    assert failed is not None and failed.state is JobState.FAILED and failed.attempts == 1


async def test_a_lost_lease_discards_the_slow_workers_result(db: Database, ns: str) -> None:
    [job_id] = await _queue(db, ns, 1)
    slow = await jobs.claim(db, "slow", 0.2, job_id)
    assert slow is not None
    await asyncio.sleep(0.3)
    assert await jobs.reclaim_expired(db, max_attempts=5) >= 1
    fast = await jobs.claim(db, "fast", 60, job_id)
    assert fast is not None and fast.attempt == 2

    async def finish(claim: jobs.Claim) -> jobs.Job:
        async def work(tx):  # type: ignore[no-untyped-def]
            await jobs.own(tx, claim)
            return await jobs.finish(tx, claim, {"summaries": 0}, [], [])
        return await db.transaction(work)

    with pytest.raises(LeaseLost):
        await finish(slow)
    assert (await finish(fast)).state is JobState.DONE
    assert await jobs.fail(db, slow, "late", _settings()) is None  # not the holder any more


async def test_a_job_whose_worker_keeps_dying_fails_with_its_event(db: Database,
                                                                  ns: str) -> None:
    [job_id] = await _queue(db, ns, 1)
    before = jobs.utcnow() - timedelta(seconds=1)
    assert await jobs.claim(db, "dies", 0.1, job_id) is not None
    await asyncio.sleep(0.2)
    assert await jobs.reclaim_expired(db, max_attempts=1) >= 1  # its one attempt is spent
    events = await outbox.since(db, Namespace(ns), list(EventKind), before)
    assert [(e.kind, e.subject_id) for e in events] == [(EventKind.JOB_FAILED, job_id)]


async def test_retry_is_for_failed_or_waiting_jobs(db: Database, ns: str) -> None:
    [job_id] = await _queue(db, ns, 1)
    claim = await jobs.claim(db, "w", 60, job_id)
    assert claim is not None
    with pytest.raises(InvalidInput):
        await jobs.retry(db, Namespace(ns), job_id)  # running
    other = Namespace(ns + "-other")
    with pytest.raises(Exception, match="no job"):
        await jobs.retry(db, other, job_id)  # another namespace cannot see it


async def test_jobs_lists_only_the_state_asked_for(gql: GraphQLClient, db: Database,
                                                   ns: str) -> None:
    first, _ = await _queue(db, ns, 2)
    assert await jobs.claim(db, "lister", 60, first) is not None  # running now
    listed = """query($ns: String!, $state: JobState) { jobs(namespace: $ns, state: $state) {
        nodes { id state } } }"""
    running = (await gql.ok(listed, ns=ns, state="RUNNING"))["jobs"]["nodes"]
    assert first in [j["id"] for j in running] and {j["state"] for j in running} == {"RUNNING"}
    queued = (await gql.ok(listed, ns=ns, state="QUEUED"))["jobs"]["nodes"]
    assert first not in [j["id"] for j in queued]
    assert {j["state"] for j in queued} <= {"QUEUED"}


async def test_a_job_erased_while_a_request_waits_for_it_is_not_found(
        gql: GraphQLClient, db: Database, ns: str) -> None:
    """`wait: true` waits while another job holds the namespace; erasing the namespace then
    takes its job away: the request says NOT_FOUND, not INTERNAL (a KeyError had escaped)."""
    await gql.ok(RECORD, ns=ns, eps=[{"externalId": "e1", "kind": "USER_MESSAGE", "actor": "user",
                                      "content": "I moved to Porto.",
                                      "occurredAt": "2026-01-01T10:00:00Z"}])
    (holder,) = await _queue(db, ns, 1)
    claim = await jobs.claim(db, "another-worker", 60, holder)
    assert claim is not None  # the namespace is busy: the request's job waits behind it
    waiting = asyncio.create_task(gql("""mutation($ns: String!) { extractFacts(namespace: $ns,
        episodeIds: ["e1"], wait: true) { id } }""", ns=ns))
    for _ in range(200):  # until its job is queued behind the running one
        if (await jobs.page(db, Namespace(ns), JobState.QUEUED, 1, None)).items:
            break
        await asyncio.sleep(0.05)
    await delete_namespace(db, ns)
    answer = await asyncio.wait_for(waiting, 30)
    assert answer["errors"][0]["extensions"]["code"] == "NOT_FOUND", answer
    assert answer["data"] is None or answer["data"]["extractFacts"] is None
