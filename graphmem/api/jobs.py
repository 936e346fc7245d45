"""GraphQL types and resolvers for the pipelines: jobs, their switches, and running
extraction or summarisation on demand."""

from __future__ import annotations

import asyncio
import time
from datetime import datetime
from typing import Annotated, TypeAlias

import strawberry

from graphmem.api.facts import Fact
from graphmem.api.server.arguments import AfterArg, FirstArg
from graphmem.api.server.context import Context, Info
from graphmem.api.server.fields import mirror, resolver
from graphmem.api.server.pagination import Connection, to_connection
from graphmem.api.server.scope import scoped
from graphmem.core.errors import InvalidInput, NotFound
from graphmem.core.namespaces import Namespace
from graphmem.core.pagination import batch_size, page_size
from graphmem.episodes import store as episodes
from graphmem.facts import provenance
from graphmem.jobs import queue as domain
from graphmem.jobs import switches
from graphmem.summaries import store as summaries

# The domain enums are the GraphQL enums: strawberry.enum registers each class in place.
JobKind: TypeAlias = domain.JobKind
strawberry.enum(JobKind, description=(
    "extract: facts from episodes; summarize_session: a level-1 summary of a session; "
    "summarize_namespace: a level-2 summary over session summaries."))
JobState: TypeAlias = domain.JobState
strawberry.enum(JobState, description=(
    "queued: waiting (maybe backing off until notBefore); running: a worker holds it; "
    "done; failed: attempts ran out or the error cannot pass (see error; retryJob)."))
WaitArg = Annotated[bool, strawberry.argument(
    description="Run it now, in this request, and return it finished (or failed): for "
                "callers that need the result before answering. Default: queue it.")]


# What a job's stats may say, each a field of its own (null when it does not say).
_STATS = ("producer", "selected", "skipped", "candidates", "facts", "summaries", "llm_calls",
          "tokens_in", "tokens_out", "cost_usd")


@strawberry.type(description="A pipeline job: what it concerns, where it stands, what it did.")
class Job:
    id: strawberry.ID = strawberry.field(description="graphmem's id (`job_…`).")
    namespace: str = strawberry.field(description="The namespace it works on.")
    kind: JobKind = strawberry.field(description="What it does.")
    state: JobState = strawberry.field(description="Where it stands.")
    attempts: int = strawberry.field(description="Attempts started so far.")
    created_at: datetime = strawberry.field(description="When it was queued.")
    not_before: datetime | None = strawberry.field(description="Not run before (backoff).")
    started_at: datetime | None = strawberry.field(description="When the last attempt began.")
    finished_at: datetime | None = strawberry.field(description="When it finished or failed.")
    session_id: str | None = strawberry.field(description="The session a summary is for.")
    error: str | None = strawberry.field(description="The last attempt's error (no content).")
    episodes: int = strawberry.field(description="Episodes it concerns.")
    producer: str | None = strawberry.field(
        description="What did the work: `patterns-v1`, `extractive-v1`, `llm:<model>/<prompt>`.")
    selected: int | None = strawberry.field(description="Episodes judged worth extracting.")
    skipped: int | None = strawberry.field(description="Episodes the heuristics skipped.")
    candidates: int | None = strawberry.field(description="Facts the extractor proposed.")
    facts: int | None = strawberry.field(description="Facts written (asserted or corrected).")
    summaries: int | None = strawberry.field(description="Summaries written.")
    llm_calls: int | None = strawberry.field(description="Calls to the LLM.")
    tokens_in: int | None = strawberry.field(description="Prompt tokens (as the LLM counted).")
    tokens_out: int | None = strawberry.field(description="Completion tokens.")
    cost_usd: float | None = strawberry.field(description="Cost at the configured prices.")

    @classmethod
    def of(cls, j: domain.Job) -> Job:
        return mirror(cls, j, **{name: j.stats.get(name) for name in _STATS})

    @resolver("The facts it wrote (any status now).")
    async def produced_facts(self, info: Info) -> list[Fact]:
        ctx, ns = info.context, Namespace(self.namespace)
        loader = ctx.loader("job_facts", ns, lambda ids: provenance.produced_facts(ctx.db, ns, ids))
        return [Fact.of(f) for f in await loader.load(str(self.id))]


@strawberry.type(description="Which pipelines run for a namespace's new episodes.")
class PipelineSwitches:
    extract: bool = strawberry.field(description="Recording episodes queues extraction.")
    summarize: bool = strawberry.field(description="Sessions get summaries as they grow, and "
                                                   "stale summaries are rebuilt.")
    is_default: bool = strawberry.field(description="True: the server's defaults apply.")
    updated_at: datetime | None = strawberry.field(description="When last set.")
    updated_by: str | None = strawberry.field(description="Who set them (API key name).")

    @classmethod
    def of(cls, s: switches.Switches) -> PipelineSwitches:
        return mirror(cls, s)


@scoped
async def list_jobs(
    ctx: Context, ns: Namespace,
    state: Annotated[JobState | None, strawberry.argument(description="Only this state.")]
    = None,
    first: FirstArg = 50, after: AfterArg = None,
) -> Connection[Job]:
    page = await domain.page(ctx.db, ns, domain.JobState(state) if state else None,
                             page_size(first, ctx.settings.max_page), after)
    return to_connection(page, Job.of)


@scoped
async def job(ctx: Context, ns: Namespace,
              id: Annotated[strawberry.ID, strawberry.argument(description="The job's id.")],
              ) -> Job | None:
    found = await domain.by_ids(ctx.db, ns, [str(id)])
    return Job.of(found[str(id)]) if str(id) in found else None


@scoped
async def pipelines(ctx: Context, ns: Namespace) -> PipelineSwitches:
    return PipelineSwitches.of(await switches.of_namespace(ctx.db, ns, ctx.settings))


@scoped
async def set_pipelines(
    ctx: Context, ns: Namespace,
    extract: Annotated[bool | None, strawberry.argument(
        description="Queue extraction for new episodes (null: unchanged).")] = None,
    summarize: Annotated[bool | None, strawberry.argument(
        description="Summarise sessions as they grow (null: unchanged).")] = None,
) -> PipelineSwitches:
    return PipelineSwitches.of(await switches.set_switches(
        ctx.db, ns, ctx.settings, extract, summarize, ctx.principal.name))


@scoped
async def retry_job(ctx: Context, ns: Namespace,
                    id: Annotated[strawberry.ID, strawberry.argument(
                        description="A failed (or backing-off) job.")]) -> Job:
    return Job.of(await domain.retry(ctx.db, ns, str(id)))


@scoped
async def extract_facts(
    ctx: Context, ns: Namespace,
    episode_ids: Annotated[list[strawberry.ID], strawberry.argument(
        description="Episodes (ids or externalIds) to extract facts from.")],
    wait: WaitArg = False,
) -> Job:
    batch_size(len(episode_ids), ctx.settings.max_batch, "episodeIds")
    found = await episodes.resolve_refs(ctx.db, ns, [str(ref) for ref in episode_ids],
                                        "episodeIds")
    queued = await domain.enqueue(ctx.db, ns, domain.JobKind.EXTRACT,
                                  sorted({e.id for e in found.values()}))
    return await _maybe_run(ctx, ns, queued, wait)


@scoped
async def summarize(
    ctx: Context, ns: Namespace,
    session_id: Annotated[str | None, strawberry.argument(
        description="The session to summarise; null: a namespace summary over the session "
                    "summaries.")] = None,
    wait: WaitArg = False,
) -> Job:
    if session_id is not None:
        if not await summaries.has_session(ctx.db, ns, session_id):
            raise NotFound(f"no session {session_id!r} in this namespace", field="sessionId")
        kind = domain.JobKind.SUMMARIZE_SESSION
    else:
        kind = domain.JobKind.SUMMARIZE_NAMESPACE
    queued = await domain.enqueue(ctx.db, ns, kind, [], session_id)
    return await _maybe_run(ctx, ns, queued, wait)


async def _maybe_run(ctx: Context, ns: Namespace, queued: domain.Job, wait: bool) -> Job:
    if not wait:
        return Job.of(queued)
    if ctx.worker is None:
        raise InvalidInput("this server runs no pipelines in requests", field="wait")
    # Run it here as soon as its namespace is free; if a pool worker takes it first, wait
    # for that attempt. Either way, at most one lease long.
    deadline = time.monotonic() + ctx.settings.job_lease_s
    while True:
        ran = await ctx.worker.run_one(queued.id)
        if ran is not None:
            return Job.of(ran)  # done, or failed with the error (maybe retried later)
        now = (await domain.by_ids(ctx.db, ns, [queued.id])).get(queued.id)
        if now is None:  # gone while waited for: its namespace erased meanwhile
            raise NotFound(f"job {queued.id} no longer exists (its namespace was erased)",
                           field="wait")
        settled = now.state in (domain.JobState.DONE, domain.JobState.FAILED) or (
            now.state is domain.JobState.QUEUED and now.attempts > 0)
        if settled or time.monotonic() > deadline:
            return Job.of(now)
        await asyncio.sleep(0.05)


@strawberry.type
class Query:
    jobs: Connection[Job] = strawberry.field(
        resolver=list_jobs,
        description="Pipeline jobs (extraction, summaries), newest first.")
    job: Job | None = strawberry.field(resolver=job,
                                               description="One pipeline job by id.")
    pipelines: PipelineSwitches = strawberry.field(
        resolver=pipelines,
        description="Whether new episodes are extracted and sessions summarised.")


@strawberry.type
class Mutation:
    extract_facts: Job = strawberry.field(
        resolver=extract_facts,
        description="Extract facts from episodes (LLM if configured, else offline patterns), "
                    "through conflict resolution; queued, or run now with `wait`.")
    summarize: Job = strawberry.field(
        resolver=summarize,
        description="Summarise a session (folding new episodes into its summary) or, without "
                    "a session, the namespace's session summaries; queued, or now with `wait`.")
    set_pipelines: PipelineSwitches = strawberry.field(
        resolver=set_pipelines,
        description="Switch extraction and summarisation on or off for new episodes.")
    retry_job: Job = strawberry.field(
        resolver=retry_job,
        description="Queue a failed job again, now, with fresh attempts.")
