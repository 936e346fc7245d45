"""The ASGI application: a Starlette app made by a factory, one Neo4j driver per process.

The driver opens in the lifespan; a background task waits (with capped backoff) until Neo4j
answers and the migrations are applied, so the process serves ``/healthz`` at once and
``/readyz`` says why it is not ready yet.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, Router

from graphmem.api.schema import build_schema
from graphmem.api.server.gate import Gate
from graphmem.api.server.http import graphql_routes
from graphmem.archive import stores as archive_stores
from graphmem.console import assets, browser_guide
from graphmem.console import routes as console
from graphmem.console.exports import export_route
from graphmem.core.config import Settings, get_settings
from graphmem.core.errors import GraphmemError
from graphmem.db import migrations
from graphmem.db.database import Database, open_database, wait_until_reachable
from graphmem.equipment import equip
from graphmem.events import webhooks
from graphmem.events.feed import Feed
from graphmem.observability import metrics, tracing
from graphmem.observability.logs import RequestIds
from graphmem.pipelines.worker import Worker, run_workers
from graphmem.portability import syncing
from graphmem.retrieval import background, embeddings, usage
from graphmem.retrieval.embeddings import Embedder
from graphmem.retrieval.fact_cache import FactCache
from graphmem.retrieval.usage import UsageLog
from graphmem.security import encryption

log = logging.getLogger(__name__)


@dataclass
class Runtime:
    """What the process holds for its lifetime (``app.state.runtime``)."""

    settings: Settings
    db: Database
    embedder: Embedder | None = None
    fact_cache: FactCache = field(default_factory=FactCache)
    usage: UsageLog = field(default_factory=UsageLog)
    worker: Worker | None = None  # runs jobs on request (`wait: true`); the pool runs the rest
    events: Feed | None = None  # one poll of the outbox for every subscription
    sync: syncing.Background | None = None  # namespaces synced in the background (a device)
    ready: bool = False
    problem: str | None = "starting"
    _task: asyncio.Task[None] | None = field(default=None, repr=False)
    _worker: asyncio.Task[None] | None = field(default=None, repr=False)
    _pool: asyncio.Task[None] | None = field(default=None, repr=False)
    _webhooks: asyncio.Task[None] | None = field(default=None, repr=False)
    _usage: asyncio.Task[None] | None = field(default=None, repr=False)
    _sync: asyncio.Task[None] | None = field(default=None, repr=False)

    async def become_ready(self) -> None:
        delay = 0.5
        while not self.ready:
            try:
                await wait_until_reachable(self.db, self.settings.neo4j_connect_timeout_s)
                applied = await migrations.apply(self.db)
                if applied:
                    log.info("applied migrations %s", ", ".join(applied))
                if self.embedder is not None:
                    self.embedder = await embeddings.ensure_space(self.db, self.embedder)
                if self.embedder is not None and self.settings.embedding_worker:
                    self._worker = asyncio.create_task(embeddings.run_worker(
                        self.db, self.embedder, self.settings.embedding_batch_size))
                if self.settings.workers:
                    self._pool = asyncio.create_task(
                        run_workers(self.db, self.settings, self.settings.workers))
                # Idle, one indexed look a second; deliveries are claimed, so every process
                # may send them.
                self._webhooks = asyncio.create_task(
                    webhooks.run_dispatcher(self.db, self.settings))
                self._usage = asyncio.create_task(
                    usage.run_flusher(self.db, self.usage, self.settings.usage_flush_s))
                if self.sync is not None:  # one loop, one namespace after another
                    self._sync = asyncio.create_task(
                        syncing.run_in_background(self.db, self.sync))
                _freeze_startup_objects()
                self.ready, self.problem = True, None
            except GraphmemError as exc:
                self.problem = exc.message
                log.error("not ready: %s", exc.message)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 30.0)


def _freeze_startup_objects() -> None:
    """What is loaded by now (schema, model, driver) lives as long as the process: moved out
    of the collector's sight, a full collection no longer walks it. Collections took 7 ms of
    a 500-episode `recordEpisodes` batch before this and 1.6 ms after (gc callbacks, 20
    batches)."""
    gc.collect()  # garbage first, or its cycles would be kept for good
    gc.freeze()


def _say_if_assets_missing() -> None:
    """Once, at start: without the browser libraries every /console/vendor/ file answers 404
    and the graph view and GraphiQL stay blank; the other pages and the API work."""
    if gone := assets.missing():
        log.warning("the console's graph view and GraphiQL will not load: %s missing; %s",
                    ", ".join(gone), assets.MISSING_HINT)


def create_app(settings: Settings | None = None) -> Starlette:
    settings = settings or get_settings()
    # Read now, so a bad key or archive URL stops the app before it starts.
    keyring, store = encryption.configured(settings), archive_stores.open_store(settings)
    background_sync = syncing.Background.of(settings)
    tracer = tracing.configured(settings)
    gate = Gate(settings)  # one policy (keys, rates, sizes) for every route and transport

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        _say_if_assets_missing()
        db = equip(open_database(settings), keyring, store, tracer)
        runtime = Runtime(settings=settings, db=db, embedder=embeddings.make_embedder(settings),
                          worker=Worker(db, settings), events=Feed(db, settings.event_poll_s),
                          sync=background_sync)
        runtime._task = asyncio.create_task(runtime.become_ready())
        app.state.runtime = gate.runtime = runtime
        try:
            yield
        finally:
            for task in (runtime._task, runtime._worker, runtime._pool, runtime._webhooks,
                         runtime._usage, runtime._sync):
                if task is not None:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
            if runtime.events is not None:
                await runtime.events.close()
            if runtime.ready:  # the last interval's notes; only a hint if Neo4j is gone
                with contextlib.suppress(Exception):  # asyncio.timeout: see outbox.rest
                    async with asyncio.timeout(5):
                        await runtime.usage.flush(runtime.db)
            await runtime.db.close()
            await asyncio.to_thread(background.stop, runtime.db)
            tracer.shutdown()

    app = Starlette(
        routes=[
            Route("/healthz", _healthz),
            Route("/readyz", _readyz),
            Mount("/browser", _cross_origin(Route("/guide", _browser_guide),
                                            Route("/style.grass", _browser_style))),
            Route("/metrics", metrics.endpoint),
            *graphql_routes(build_schema(settings), settings, gate, ide=console.graphiql),
            export_route(settings, gate),
            *console.routes(),
        ],
        middleware=[Middleware(RequestIds)],
        lifespan=lifespan,
    )
    app.state.gate = gate
    return app


async def _healthz(request: Request) -> JSONResponse:
    return JSONResponse({"status": "ok"})


def _cross_origin(*routes: Route) -> CORSMiddleware:
    """Routes any web page may read, preflight included: Neo4j Browser (another origin)
    sends one before it fetches a guide, and a plain GET route answered it 405."""
    return CORSMiddleware(Router(routes=list(routes)), allow_origins=["*"],
                          allow_methods=["GET"], allow_headers=["*"])


async def _browser_guide(request: Request) -> HTMLResponse:
    """Static slides and queries, no memory content: Neo4j Browser fetches them cross-origin."""
    origin = f"{request.url.scheme}://{request.url.netloc}"  # where Browser fetched it from
    return HTMLResponse(browser_guide.render(origin))


async def _browser_style(request: Request) -> Response:
    """The guide's Browser style (GraSS), fetched by ``:style <url>`` from Browser's origin."""
    return Response(browser_guide.STYLE, media_type="text/plain; charset=utf-8")


async def _readyz(request: Request) -> JSONResponse:
    """Ready: started, Neo4j reachable, and, if Neo4j failed by itself since (a full disk, a
    panicked kernel: it answers, but writes nothing until it is restarted), writing again.
    Only then does it cost a write, so a load balancer's polling costs nothing otherwise."""
    runtime: Runtime = request.app.state.runtime
    if not runtime.ready:
        return _not_ready(runtime.problem)
    db = runtime.db
    try:
        async with asyncio.timeout(2.0):
            await db.driver.verify_connectivity()
    except Exception:  # any failure means "not ready", said plainly
        return _not_ready(f"Neo4j at {db.uri} is unreachable")
    if db.health.failure is not None and not await db.writes_again():
        return _not_ready(db.health.failure)
    return JSONResponse({"status": "ready"})


def _not_ready(reason: str | None) -> JSONResponse:
    return JSONResponse({"status": "not ready", "reason": reason}, status_code=503)
