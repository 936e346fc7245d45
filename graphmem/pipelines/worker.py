"""The worker: claims pipeline jobs and runs them, inside `graphmem serve` or alone as
`graphmem worker`. Any number of workers (tasks or processes) can share one queue.

Each loop: claim the oldest due job, run it, record the outcome. Every few seconds it also
puts back jobs whose worker died (expired leases), erases ephemeral sessions idle past their
time to live, queues rebuilds of stale summaries and updates the queue gauges; every
``retention_sweep_s`` it applies retention and pruning policies. A failure never stops the
loop: a housekeeping step that fails is passed over, and a namespace that fails its share of a
round is passed over in it (``governance/rounds``), so jobs and every other tenant go on.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import time
import uuid
from collections.abc import Awaitable

from graphmem.core.config import Settings
from graphmem.core.errors import GraphmemError, LeaseLost, LLMError
from graphmem.db.database import Database
from graphmem.events import outbox
from graphmem.governance import ephemeral, pruning, retention, rounds
from graphmem.jobs import queue as jobs
from graphmem.observability import metrics
from graphmem.pipelines import extraction, summarising
from graphmem.pipelines.llm import LLM

log = logging.getLogger(__name__)
HOUSEKEEPING_S = 5.0


class Worker:
    def __init__(self, db: Database, settings: Settings, name: str | None = None) -> None:
        self.db = db
        self.settings = settings
        self.llm = LLM(settings, db.tracing) if settings.llm_model else None
        self.name = name or f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._swept_at: float | None = None  # the retention sweeper's last round

    async def run_one(self, job_id: str | None = None) -> jobs.Job | None:
        """Claim and run one due job (or ``job_id``); None when there was none to claim."""
        claim = await jobs.claim(self.db, self.name, self.settings.job_lease_s, job_id)
        if claim is None:
            return None
        kind = claim.job.kind.value
        began = time.perf_counter()
        heartbeat = asyncio.create_task(self._keep_lease(claim))
        try:
            done = await self._run(claim)
        except LeaseLost:
            metrics.JOBS.labels(kind, "lease_lost").inc()
            log.warning("job %s was taken over by another worker; result discarded",
                        claim.job.id)
            return None
        except asyncio.CancelledError:  # shutting down: hand the job back, then stop
            await asyncio.shield(jobs.release(self.db, claim))
            raise
        except Exception as exc:  # every failure is recorded on the job, then the loop goes on
            metrics.JOBS.labels(kind, "error").inc()
            # Only an answer that would repeat (a refusal) fails at once; anything else may
            # pass next time (an endpoint back up, an episode erased meanwhile).
            final = isinstance(exc, LLMError) and not exc.retryable
            log.warning("job %s (%s) attempt %d failed: %s", claim.job.id, kind,
                        claim.attempt, _describe(exc))
            return await jobs.fail(self.db, claim, _describe(exc), self.settings, final=final)
        finally:
            heartbeat.cancel()
        metrics.JOBS.labels(kind, "done").inc()
        metrics.JOB_SECONDS.labels(kind).observe(time.perf_counter() - began)
        _count_usage(done)
        return done

    async def _keep_lease(self, claim: jobs.Claim) -> None:
        """Renew the lease every third of it, so a long job (a session rebuilt through an
        LLM) is never taken for a dead one while this worker is alive."""
        lease = self.settings.job_lease_s
        while True:
            await asyncio.sleep(lease / 3)
            try:
                await jobs.renew(self.db, claim, lease)
            except Exception as exc:  # the next beat may get through; expiry is the backstop
                log.warning("lease renewal failed: %s", _describe(exc))

    async def drain(self) -> int:
        """Run due jobs until none is left; how many ran (tests and `graphmem worker --once`)."""
        ran = 0
        while await self.run_one() is not None:
            ran += 1
        return ran

    async def run_forever(self, idle_s: float = 0.5) -> None:
        last_housekeeping = 0.0
        delay = idle_s
        while True:
            try:
                if time.monotonic() - last_housekeeping > HOUSEKEEPING_S:
                    last_housekeeping = time.monotonic()  # even if it fails: jobs come first
                    await self.housekeeping()
                ran = await self.run_one()
                delay = idle_s
                if ran is None:
                    await asyncio.sleep(idle_s)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Neo4j away: back off, the leases keep jobs safe
                log.warning("worker loop: %s; retrying in %.1fs", _describe(exc), delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 30.0)

    async def housekeeping(self) -> None:
        """Each step on its own: one that fails is reported and the others, and the jobs, go
        on (and each round over namespaces passes over a namespace that fails its share)."""
        await self._step("reclaim", self._reclaim())
        await self._step("ephemeral sessions", ephemeral.expire_idle(self.db))
        await self._step("summary regeneration", jobs.enqueue_regeneration(
            self.db, limit=100, summarize_by_default=self.settings.summarize_by_default))
        if self._swept_at is None or \
                time.monotonic() - self._swept_at > self.settings.retention_sweep_s:
            self._swept_at = time.monotonic()  # a failed round waits for the next one too
            await self._step("retention", retention.sweep_all(
                self.db, retract_orphans=self.settings.retention_orphaned_facts == "retract"))
            await self._step("pruning", pruning.prune_all(self.db))
            await self._step("event pruning", outbox.prune(self.db, jobs.utcnow()))
        await self._step("queue gauges", self._gauge_queue())

    async def _step(self, task: str, work: Awaitable[object]) -> None:
        try:
            await work
        except Exception as exc:  # reported; the next step and the jobs go on
            metrics.HOUSEKEEPING_FAILURES.labels(task).inc()
            log.warning("housekeeping: %s failed (%s)", task, rounds.kind(exc))

    async def _reclaim(self) -> None:
        reclaimed = await jobs.reclaim_expired(self.db, self.settings.job_max_attempts)
        if reclaimed:
            log.warning("put %d job(s) of stopped workers back in the queue", reclaimed)

    async def _gauge_queue(self) -> None:
        depth = await jobs.depth(self.db)
        for state in ("queued", "running", "failed"):
            metrics.JOB_QUEUE.labels(state).set(depth[state])

    async def _run(self, claim: jobs.Claim) -> jobs.Job:
        with self.db.tracing.span(f"job {claim.job.kind.value}", {
                "graphmem.job.id": claim.job.id, "graphmem.job.attempt": claim.attempt}):
            if claim.job.kind is jobs.JobKind.EXTRACT:
                return await extraction.run(self.db, self.settings, self.llm, claim)
            return await summarising.run(self.db, self.settings, self.llm, claim)


def _describe(exc: BaseException) -> str:
    """What a job record and a log line may say: our own messages, else only the type
    (a driver or library message could quote memory content)."""
    if isinstance(exc, GraphmemError):
        return f"{exc.code}: {exc.message}"
    return type(exc).__name__


def _count_usage(job: jobs.Job) -> None:
    metrics.LLM_TOKENS.labels("in").inc(job.stats.get("tokens_in", 0))
    metrics.LLM_TOKENS.labels("out").inc(job.stats.get("tokens_out", 0))
    metrics.LLM_COST.inc(job.stats.get("cost_usd", 0.0))


async def run_workers(db: Database, settings: Settings, count: int) -> None:
    """``count`` workers in this process until cancelled (`graphmem serve`)."""
    await asyncio.gather(*(Worker(db, settings).run_forever() for _ in range(count)))
