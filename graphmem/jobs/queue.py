"""The durable job queue, kept in Neo4j next to the memory it works on.

A ``(:Job)`` is queued in the same transaction as the episodes it concerns, so nothing
acknowledged goes unprocessed. Workers claim one job at a time atomically (the claim takes
the node's write lock, so two workers never hold the same job) under a lease; a job's results
are written in one transaction that first checks the lease is still held (``own``), so a job
completes exactly once even when a worker dies mid-way and another takes over. Failures go
back to the queue with exponential backoff until attempts run out, then stay ``failed`` with
the error (never memory content) until ``retryJob``.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Any

from graphmem.core.backoff import backoff
from graphmem.core.config import Settings
from graphmem.core.errors import InvalidInput, LeaseLost, NotFound
from graphmem.core.namespaces import Namespace
from graphmem.core.pagination import Page, after_time_cursor, time_cursor
from graphmem.core.timeutil import maybe_datetime, parse_stored_datetime, to_native
from graphmem.db.database import Database, Row, Tx
from graphmem.events import outbox
from graphmem.events.outbox import EventKind


class JobKind(StrEnum):
    EXTRACT = "extract"  # facts from the episodes it concerns
    SUMMARIZE_SESSION = "summarize_session"  # a level-1 summary of one session
    SUMMARIZE_NAMESPACE = "summarize_namespace"  # a level-2 summary over session summaries


class JobState(StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"


@dataclass(frozen=True)
class Job:
    id: str
    namespace: str
    kind: JobKind
    state: JobState
    attempts: int
    created_at: datetime
    not_before: datetime | None
    started_at: datetime | None
    finished_at: datetime | None
    session_id: str | None
    error: str | None
    worker: str | None
    episodes: int
    stats: dict[str, Any] = field(default_factory=dict)  # what the run did (see ``STATS``)

    @classmethod
    def from_row(cls, row: Row) -> Job:
        return cls(
            id=row["id"], namespace=row["ns"], kind=JobKind(row["kind"]),
            state=JobState(row["state"]), attempts=row.get("attempts") or 0,
            created_at=parse_stored_datetime(row["created_at"]),
            not_before=maybe_datetime(row.get("not_before")),
            started_at=maybe_datetime(row.get("started_at")),
            finished_at=maybe_datetime(row.get("finished_at")),
            session_id=row.get("session_id"), error=row.get("error"),
            worker=row.get("worker"), episodes=row.get("episodes") or 0,
            stats={k: row[k] for k in STATS if row.get(k) is not None})

    @property
    def cursor(self) -> str:
        return time_cursor(self.created_at, self.id)


CLAIM_RACES = 20  # a worker losing this many races in a row idles briefly, then tries again

# What a finished job records about its run (properties of the Job node).
STATS = ("producer", "selected", "skipped", "candidates", "facts", "summaries",
         "llm_calls", "tokens_in", "tokens_out", "cost_usd")


@dataclass(frozen=True)
class Claim:
    """A job this worker holds: ``attempt`` is its ticket for writing the results."""

    job: Job
    worker: str

    @property
    def attempt(self) -> int:
        return self.job.attempts


@dataclass(frozen=True)
class Triggers:
    """When recording episodes queues work (from settings; namespaces switch them)."""

    extract_by_default: bool
    summarize_by_default: bool
    job_episodes: int
    summary_every_episodes: int
    summary_every_tokens: int

    @classmethod
    def from_settings(cls, settings: Settings) -> Triggers:
        return cls(settings.extract_by_default, settings.summarize_by_default,
                   settings.job_episodes, settings.summary_every_episodes,
                   settings.summary_every_tokens)


def utcnow() -> datetime:
    return datetime.now(UTC)


def new_id() -> str:
    return f"job_{uuid.uuid4().hex}"


async def enqueue_after_record(tx: Tx, ns: Namespace, rows: list[Row], triggers: Triggers,
                               now: datetime) -> None:
    """Inside the recording transaction: extraction for the new episodes (in jobs of
    ``job_episodes``) and a summary for each session past its threshold."""
    ids = [row["id"] for row in rows]
    chunks = [ids[i:i + triggers.job_episodes] for i in range(0, len(ids), triggers.job_episodes)]
    await tx.run("jobs/enqueue_extraction", ns=ns, now=to_native(now),
                 extract_by_default=triggers.extract_by_default,
                 jobs=[{"id": new_id(), "episode_ids": chunk} for chunk in chunks])
    sessions = sorted({row["session_id"] for row in rows if row["session_id"] is not None})
    if sessions:
        await tx.run("jobs/enqueue_summaries", ns=ns, now=to_native(now), session_ids=sessions,
                     summarize_by_default=triggers.summarize_by_default,
                     every_episodes=triggers.summary_every_episodes,
                     every_tokens=triggers.summary_every_tokens)


async def enqueue_namespace_summary(tx: Tx, ns: Namespace, fanout: int) -> None:
    """A namespace summary job, once ``fanout`` session summaries wait to be folded in."""
    await tx.run("jobs/enqueue_namespace_summary", ns=ns, fanout=fanout,
                 now=to_native(datetime.now(UTC)))


async def enqueue_regeneration(db: Database, limit: int, summarize_by_default: bool) -> None:
    """Jobs rebuilding stale summaries, at most ``limit``, in every namespace that summarises."""
    await db.write("jobs/enqueue_regeneration", limit=limit,
                   summarize_by_default=summarize_by_default, now=to_native(utcnow()))


async def depth(db: Database) -> Row:
    """How many jobs are queued, running and failed (the queue gauges)."""
    return (await db.read("jobs/depth"))[0]


async def episode_rows(db: Database, ns: Namespace, job_id: str) -> list[Row]:
    """The stored episodes a job covers (content still sealed)."""
    return [row["episode"] for row in await db.read("jobs/episodes", ns=ns, id=job_id)]


async def enqueue(db: Database, ns: Namespace, kind: JobKind, episode_ids: list[str],
                  session_id: str | None = None) -> Job:
    rows = await db.write("jobs/enqueue", ns=ns, id=new_id(), kind=kind.value,
                          episode_ids=episode_ids, session_id=session_id,
                          now=to_native(datetime.now(UTC)))
    return Job.from_row({**rows[0]["job"], "episodes": len(episode_ids)})


async def claim(db: Database, worker: str, lease_s: float,
                job_id: str | None = None) -> Claim | None:
    """Take the oldest due job (or ``job_id`` if it is still queued), or None when no job
    is due. Losing a race for one job moves on to the next."""
    for _ in range(CLAIM_RACES):
        now = datetime.now(UTC)
        rows = await db.write("jobs/claim", worker=worker, id=job_id, now=to_native(now),
                              lease_until=to_native(now + timedelta(seconds=lease_s)))
        if not rows:
            return None
        if rows[0]["job"] is not None:
            return Claim(Job.from_row(rows[0]["job"]), worker)
        if job_id is not None:
            return None  # someone else took the one we asked for
    return None


async def renew(db: Database, claim: Claim, lease_s: float) -> bool:
    """Extend the lease of a job still running here (the worker's heartbeat)."""
    rows = await db.write("jobs/renew", ns=claim.job.namespace, id=claim.job.id,
                          worker=claim.worker, attempt=claim.attempt,
                          lease_until=to_native(utcnow() + timedelta(seconds=lease_s)))
    return bool(rows)


async def release(db: Database, claim: Claim) -> None:
    """Hand a job back at once (the worker is stopping); the attempt does not count."""
    await db.write("jobs/release", ns=claim.job.namespace, id=claim.job.id,
                   worker=claim.worker, attempt=claim.attempt, now=to_native(utcnow()))


async def reclaim_expired(db: Database, max_attempts: int) -> int:
    """Put back jobs of dead workers; those out of attempts fail, each with its JOB_FAILED
    event in the same transaction."""
    now = utcnow()

    async def reclaim(tx: Tx) -> int:
        row = (await tx.run("jobs/reclaim", now=to_native(now), max_attempts=max_attempts))[0]
        failed: dict[str, list[str]] = {}
        for job in row["failed"]:
            failed.setdefault(job["ns"], []).append(job["id"])
        for ns, ids in sorted(failed.items()):
            await outbox.emit(tx, Namespace(ns), EventKind.JOB_FAILED, ids, now)
        return int(row["reclaimed"])

    return await db.transaction(reclaim)


async def own(tx: Tx, claim: Claim) -> None:
    """First step of a result transaction: raise (rolling everything back) unless this
    worker still holds this attempt of the job."""
    rows = await tx.run("jobs/own", ns=claim.job.namespace, id=claim.job.id,
                        worker=claim.worker, attempt=claim.attempt)
    if not rows:
        raise LeaseLost(f"job {claim.job.id} attempt {claim.attempt} is no longer ours")


async def finish(tx: Tx, claim: Claim, stats: dict[str, Any], fact_ids: list[str],
                 summary_ids: list[str]) -> Job:
    unknown = set(stats) - set(STATS)
    assert not unknown, f"not job stats: {unknown}"
    rows = await tx.run("jobs/finish", ns=claim.job.namespace, id=claim.job.id, stats=stats,
                        fact_ids=fact_ids, summary_ids=summary_ids,
                        now=to_native(datetime.now(UTC)))
    return Job.from_row({**rows[0]["job"], "episodes": claim.job.episodes})


async def fail(db: Database, claim: Claim, error: str, settings: Settings,
               final: bool = False) -> Job | None:
    """Record a failed attempt: retried after a backoff, or ``failed`` for good (at once when
    ``final``: the same input would fail the same way)."""
    now = utcnow()
    ns = Namespace(claim.job.namespace)

    async def record(tx: Tx) -> Job | None:
        rows = await tx.run(
            "jobs/fail", ns=ns, id=claim.job.id, worker=claim.worker,
            attempt=claim.attempt, error=error[:500],
            max_attempts=claim.attempt if final else settings.job_max_attempts,
            now=to_native(now),
            not_before=to_native(now + backoff(claim.attempt, settings.job_backoff_s,
                                               settings.job_backoff_cap_s)))
        if not rows:
            return None
        job = Job.from_row({**rows[0]["job"], "episodes": claim.job.episodes})
        if job.state is JobState.FAILED:
            await outbox.emit(tx, ns, EventKind.JOB_FAILED, [job.id], now)
        return job

    return await db.transaction(record)


async def retry(db: Database, ns: Namespace, job_id: str) -> Job:
    rows = await db.write("jobs/retry", ns=ns, id=job_id, now=to_native(datetime.now(UTC)))
    if not rows:
        if job_id not in await by_ids(db, ns, [job_id]):
            raise NotFound(f"no job {job_id!r} in this namespace", field="id")
        raise InvalidInput("only failed or queued jobs can be retried", field="id")
    return (await by_ids(db, ns, [job_id]))[job_id]


async def page(db: Database, ns: Namespace, state: JobState | None, first: int,
               after: str | None) -> Page[Job]:
    after_t, after_id = after_time_cursor(after)
    rows = await db.read("jobs/page", ns=ns, state=state.value if state else None,
                         after_t=to_native(after_t), after_id=after_id, limit=first + 1)
    found = [Job.from_row(row["job"]) for row in rows]
    return Page([(j.cursor, j) for j in found[:first]], has_next=len(found) > first)


async def by_ids(db: Database, ns: Namespace, ids: list[str]) -> dict[str, Job]:
    rows = await db.read("jobs/by_ids", ns=ns, ids=ids)
    return {row["job"]["id"]: Job.from_row(row["job"]) for row in rows}
