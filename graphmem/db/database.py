"""The one Neo4j driver per process and the narrow way the rest of graphmem talks to it.

Domain modules call ``Database.read``/``Database.write`` with a statement *name* from
``cypher/`` and parameters; multi-statement mutations run in ``Database.transaction`` so each
mutation is exactly one transaction, retried by the driver on transient errors.

Every statement and transaction carries a time bound that Neo4j enforces (``timeout_s``; the
longer ``admin_timeout_s`` through ``Database.admin``): one slow request ends with
``QueryTimeout`` instead of holding the database for every other tenant.

Every operation also waits at most ``max_retry_s`` plus its statement bound in all, retries
included, then answers ``DatabaseUnavailable`` (retryable): a Neo4j that stops answering
(killed, frozen, its host gone) had held requests for a minute before they answered, past
the client's timeout, which then reported committed writes as failed. And Neo4j's own
failures (``Neo.DatabaseError.*``: a full disk, a panicked kernel) are ``DatabaseUnavailable``
too, remembered in ``Database.health`` so that ``/readyz`` says so until Neo4j writes again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any, TypeVar, cast

from neo4j import (
    READ_ACCESS,
    WRITE_ACCESS,
    AsyncDriver,
    AsyncGraphDatabase,
    AsyncManagedTransaction,
    AsyncSession,
    AsyncTransaction,
    Query,
    Record,
    RoutingControl,
    unit_of_work,
)
from neo4j.exceptions import (
    AuthError,
    ClientError,
    DatabaseError,
    DriverError,
    IncompleteCommit,
    Neo4jError,
    ServiceUnavailable,
    SessionExpired,
    TransientError,
)
from neo4j.graph import Node, Path, Relationship

from graphmem.core.config import Settings
from graphmem.core.errors import (
    ConcurrentChange,
    ConfigError,
    DatabaseUnavailable,
    GraphmemError,
    QueryTimeout,
)
from graphmem.core.namespaces import lucene_key
from graphmem.db import bolt, rider
from graphmem.db.slots import Slot
from graphmem.db.statements import statement
from graphmem.observability import metrics
from graphmem.observability.tracing import Tracing

log = logging.getLogger(__name__)
T = TypeVar("T")
# What a client may retry: Neo4j unreachable, restarting or shutting down once the driver's
# own retries ran out, or a commit whose outcome is unknown (writes are idempotent).
UNAVAILABLE = (ServiceUnavailable, SessionExpired, TransientError, IncompleteCommit)
Row = dict[str, Any]
_GRAPH_OBJECTS = (Node, Relationship, Path)
# How long the driver may take to open one connection (TCP and the Bolt handshake); its
# default, 30 s, let a Neo4j that accepted connections but never answered (SIGSTOPped, or
# its host gone) use up a request's whole budget on one attempt.
CONNECT_S = 5.0


def group_rows(rows: list[Row], keys: list[str], key: str,
               convert: Callable[[Row], T]) -> list[list[T]]:
    """Rows of one batched query split per requested key, in request order (DataLoaders)."""
    grouped: dict[str, list[T]] = defaultdict(list)
    for row in rows:
        grouped[row[key]].append(convert(row))
    return [grouped[k] for k in keys]


def plain(record: Record) -> Row:
    """A record as a dict. Statements return scalars, lists and map projections, never graph
    objects, so the driver's recursive ``Record.data()`` (a millisecond for a page of 50
    facts) is needed only when a top-level value is one. The test suite checks every row
    it reads against ``data()`` (tests/conftest.py)."""
    values = record.values()
    if any(isinstance(value, _GRAPH_OBJECTS) for value in values):
        return record.data()
    return dict(zip(record.keys(), values, strict=True))


def rows_of(records: list[Record]) -> list[Row]:
    """The statement's rows. A statement that returns many rows collects them into one
    column named ``rows``: the async driver spends about 0.1 ms on every record it receives
    (500 resolved references: 60 ms as 500 records, 20 ms as one), and a collected list costs
    little more than its values."""
    rows = [plain(record) for record in records]
    if len(rows) == 1 and len(rows[0]) == 1 and "rows" in rows[0]:
        return list(rows[0]["rows"])
    return rows


@contextlib.contextmanager
def _bounded(timeout_s: float) -> Iterator[None]:
    """Neo4j's answer to a transaction that ran past its bound, as a typed error (it is a
    ClientError; left alone it was an INTERNAL)."""
    try:
        yield
    except ClientError as exc:
        if "TransactionTimedOut" not in (exc.code or ""):
            raise
        raise QueryTimeout(f"the query ran longer than the {timeout_s:g} s one statement may "
                           "take, and was ended; ask for less (a smaller page, fewer hops)",
                           timeout_s=timeout_s) from None


@contextlib.contextmanager
def _naming(name: str) -> Iterator[None]:
    """A Neo4j error says which statement it came from (a note: the API's log of an
    unexpected error prints it; its message may quote stored values and is never logged)."""
    try:
        yield
    except Neo4jError as exc:
        exc.add_note(f"{STATEMENT_NOTE}{name}")
        raise


STATEMENT_NOTE = "graphmem statement: "


VANISHED = "Neo.ClientError.Statement.EntityNotFound"


async def _again_if_vanished(run: Callable[[], Awaitable[T]]) -> T:
    """``run``, and once more when a node or relationship its statement met was deleted by
    another transaction before it was read or written (Neo4j reads committed data, so this
    is a race of any busy store: an erasure while the embedding worker stores, a search
    loading a turn being erased). Run again, the statement no longer meets it."""
    try:
        return await run()
    except ClientError as exc:
        if exc.code != VANISHED:
            raise
        log.info("a statement met a node deleted meanwhile; running it again")
        return await run()


def _count_rows(span: Any, rows: list[Row]) -> None:
    if span is not None:
        span.set_attribute("db.response.returned_rows", len(rows))


def _keyed(name: str, params: dict[str, Any]) -> dict[str, Any]:
    """Statements that write or search a fulltext index take the namespace's Lucene token
    as ``$ns_key``; it is derived here from ``$ns``, once, so no caller can pass a wrong one."""
    if "ns" in params and _takes_ns_key(name):
        return {**params, "ns_key": lucene_key(params["ns"])}
    return params


@cache
def _takes_ns_key(name: str) -> bool:
    return "$ns_key" in statement(name)


# Called with each statement's namespace before it runs, when held: encryption with a key
# per namespace loads that namespace's key there (graphmem/security/namespace_keys.py), so
# every path that reads or writes a namespace has its key, and this layer knows nothing of
# keys.
NamespaceHook = Callable[["Database", str], Awaitable[None]]
NAMESPACE_HOOK: Slot[NamespaceHook] = Slot("namespace hook")


async def _before(db: Database, params: dict[str, Any]) -> None:
    if (hook := db.get(NAMESPACE_HOOK)) is not None and isinstance(ns := params.get("ns"), str):
        await hook(db, ns)


@dataclass
class Tx:
    """A running write transaction that speaks in statement names."""

    _tx: AsyncManagedTransaction
    _db: Database
    _after_commit: list[Callable[[], None]] = field(default_factory=list)

    @property
    def db(self) -> Database:
        return self._db

    def after_commit(self, call: Callable[[], None]) -> None:
        """Call ``call`` once this transaction has committed (never if it does not: an
        attempt the driver retries is another ``Tx``)."""
        self._after_commit.append(call)

    async def run(self, name: str, /, **params: Any) -> list[Row]:
        await _before(self._db, params)
        self._db.round_trips += 1
        with (metrics.timed(metrics.CYPHER_SECONDS, name), self._db.span(name) as span,
              _naming(name)):
            result = await self._tx.run(statement(name), bolt.masked(_keyed(name, params)))
            rows = rows_of(await result.fetch(1_000_000))
            _count_rows(span, rows)
            return rows


@dataclass
class Snapshot:
    """A read transaction whose statements stream their rows (``Database.snapshot``)."""

    _tx: AsyncTransaction
    _db: Database

    async def stream(self, name: str, /, **params: Any) -> AsyncIterator[Row]:
        await _before(self._db, params)
        self._db.round_trips += 1
        with self._db.span(name), _naming(name):
            result = await self._tx.run(statement(name), bolt.masked(_keyed(name, params)))
            async for record in result:
                yield plain(record)


@dataclass
class Health:
    """What Neo4j last failed with (``Neo.DatabaseError.*``), until a write shows it works
    again (``Database.writes_again``). One per driver, shared by ``Database.admin``'s copies."""

    failure: str | None = None


@dataclass
class Database:
    driver: AsyncDriver
    name: str
    uri: str
    max_retry_s: float = 30.0  # how long a read is retried while Neo4j is away
    timeout_s: float = 15.0  # how long Neo4j lets one statement or transaction run
    admin_timeout_s: float = 600.0  # the same for administrative work (``admin``)
    round_trips: int = field(default=0)
    health: Health = field(default_factory=Health)
    # Where its spans go (off unless the app or command configured tracing): shared by its
    # copies, and reached from here by every layer that makes spans.
    tracing: Tracing = field(default_factory=Tracing, repr=False)
    held: Mapping[Slot[Any], Any] = field(default_factory=dict, repr=False)
    # What the layers above learned from this database and keep while its driver lives
    # (the erasure secret): shared by its copies, as ``health`` is.
    learned: dict[Slot[Any], Any] = field(default_factory=dict, repr=False)

    def get(self, slot: Slot[T]) -> T | None:
        """What this database holds in ``slot`` (None: nothing)."""
        return cast("T | None", self.held.get(slot))

    async def learn(self, slot: Slot[T], read: Callable[[], Awaitable[T]]) -> T:
        """What ``read`` gives, read once for this database and its copies."""
        if slot not in self.learned:
            self.learned[slot] = await read()
        return cast(T, self.learned[slot])

    def keep(self, slot: Slot[T], make: Callable[[], T]) -> T:
        """What ``make`` gives, made once for this database and its copies (on first use)."""
        if slot not in self.learned:
            self.learned[slot] = make()
        return cast(T, self.learned[slot])

    def traced(self, tracing: Tracing) -> Database:
        """This database (its driver, its health) with its spans going to ``tracing``."""
        return replace(self, tracing=tracing)

    def holding(self, slot: Slot[T], value: T | None) -> Database:
        """This database (its driver, its health) holding ``value`` in ``slot``: a copy, so
        the one it was made from holds what it held."""
        return replace(self, held={**self.held, slot: value})

    @property
    def patience_s(self) -> float:
        """How long one operation waits for Neo4j in all, retries included."""
        return self.max_retry_s + self.timeout_s

    @contextlib.asynccontextmanager
    async def _answering(self, bound_s: float) -> AsyncIterator[None]:
        """Wait at most ``bound_s`` for what runs inside, and type Neo4j's own failures: a
        Neo4j that stops answering mid-statement is never heard from again (the statement's
        bound is enforced by the server), and a full disk's error was an INTERNAL."""
        try:
            async with asyncio.timeout(bound_s):
                yield
        except TimeoutError:
            raise DatabaseUnavailable(f"Neo4j at {self.uri} did not answer within "
                                      f"{bound_s:g} s") from None
        except DatabaseError as exc:
            raise self._failed(exc) from None

    def _failed(self, exc: DatabaseError) -> DatabaseUnavailable:
        """Neo4j failed by itself, not the request: remembered for ``/readyz``. Only its
        code is kept and logged; its message may quote stored values."""
        code = exc.code or "Neo.DatabaseError"
        self.health.failure = (
            f"Neo4j at {self.uri} failed ({code}): it may be out of disk space or need a "
            "restart; free space if its disk is full, restart it, and see its log "
            "(graphmem neo4j logs) for the cause")
        log.error("Neo4j failed with %s; /readyz says not ready until it writes again", code)
        return DatabaseUnavailable(self.health.failure, neo4jCode=code)

    async def writes_again(self, timeout_s: float = 2.0) -> bool:
        """After a failure: whether Neo4j commits a write now (one small node, written over
        and over). The failure is forgotten when it does, unless another came meanwhile."""
        seen = self.health.failure
        try:
            async with asyncio.timeout(timeout_s):
                # No bookmarks: a Neo4j restored from a backup may never reach the
                # transactions this process saw committed, and would be waited for.
                await self.driver.execute_query(self._query("db/write_probe"),
                                                database_=self.name, bookmark_manager_=None,
                                                routing_=RoutingControl.WRITE)
        except (Neo4jError, DriverError, TimeoutError, OSError) as exc:
            log.warning("the write probe failed: %s %s", type(exc).__name__,
                        getattr(exc, "code", None) or "")
            return False
        if self.health.failure == seen:
            self.health.failure = None
        return True

    def admin(self) -> Database:
        """This database for long administrative work (migrations, erasing a namespace,
        exports): the same driver, with ``admin_timeout_s`` as its bound."""
        return replace(self, timeout_s=self.admin_timeout_s)

    def _query(self, name: str) -> Query:
        return Query(statement(name), timeout=self.timeout_s)

    async def read(self, name: str, /, **params: Any) -> list[Row]:
        """One read, in an auto-commit transaction: one round trip, where a managed one
        (``execute_query``) also waits for a COMMIT (0.7 of a 2 ms read). A read is safe to
        repeat, so what the driver would retry is retried here, for up to ``max_retry_s``."""
        async with self._answering(self.patience_s):
            rows = await _again_if_vanished(lambda: self._read_retrying(name, params))
        return rows

    async def _read_retrying(self, name: str, params: dict[str, Any]) -> list[Row]:
        deadline = time.monotonic() + self.max_retry_s
        delay = 0.05
        while True:
            try:
                return await self._read_once(name, params)
            except UNAVAILABLE as exc:
                if not exc.is_retryable() or time.monotonic() + delay > deadline:
                    raise self._retryable(exc) from exc
                log.warning("a read found Neo4j unavailable; retrying in %.2fs", delay)
                await asyncio.sleep(delay * random.uniform(0.8, 1.2))
                delay = min(delay * 2, 1.0)

    async def _read_once(self, name: str, params: dict[str, Any]) -> list[Row]:
        await _before(self, params)
        self.round_trips += 1
        with (metrics.timed(metrics.CYPHER_SECONDS, name), self.span(name) as span,
              _naming(name)):
            with _bounded(self.timeout_s):
                async with self._session(READ_ACCESS) as session:
                    result = await session.run(self._query(name),
                                               bolt.masked(_keyed(name, params)))
                    rows = rows_of(await result.fetch(1_000_000))
            _count_rows(span, rows)
            return rows

    async def write(self, name: str, /, **params: Any) -> list[Row]:
        """One write, as its own transaction (retried by the driver on transient errors)."""
        async with self._answering(self.patience_s):
            await _before(self, params)
            self.round_trips += 1
            try:
                with (metrics.timed(metrics.CYPHER_SECONDS, name), self.span(name) as span,
                      _bounded(self.timeout_s), _naming(name)):
                    records, _, _ = await _again_if_vanished(
                        lambda: self.driver.execute_query(
                            self._query(name), bolt.masked(_keyed(name, params)),
                            database_=self.name, routing_=RoutingControl.WRITE))
                    rows = rows_of(records)
                    _count_rows(span, rows)
            except UNAVAILABLE as exc:
                raise self._retryable(exc) from exc
        return rows

    @contextlib.asynccontextmanager
    async def snapshot(self) -> AsyncIterator[Snapshot]:
        """One read transaction for statements whose rows are streamed (an export): they all
        see the same committed state, and no more than the driver's fetch size is held. A
        whole namespace streams through it: it has the administrative bound."""
        with _bounded(self.admin_timeout_s):
            async with (self._answering(self.max_retry_s + self.admin_timeout_s),
                        self._session(READ_ACCESS) as session):
                tx = await session.begin_transaction(timeout=self.admin_timeout_s)
                try:
                    yield Snapshot(tx, self)
                finally:
                    await tx.close()

    def _session(self, mode: str = WRITE_ACCESS) -> AsyncSession:
        """A session that shares ``execute_query``'s bookmarks, so a read always sees what
        this process committed before it, on a cluster too."""
        return self.driver.session(
            database=self.name, default_access_mode=mode,
            bookmark_manager=self.driver.execute_query_bookmark_manager)

    async def transaction(self, work: Callable[[Tx], Awaitable[T]]) -> T:
        """Run ``work`` as one write transaction (retried as a whole on transient errors),
        with the request's rider, if one is waiting (``graphmem.db.rider``)."""

        attempts = 0
        passenger, this = rider.current(), object()
        running: Tx | None = None  # the attempt that commits is the last one

        @unit_of_work(timeout=self.timeout_s)
        async def unit(tx: AsyncManagedTransaction) -> T:
            nonlocal attempts, running
            attempts += 1
            running = attempt = Tx(tx, self)
            result = await work(attempt)
            if passenger is not None and passenger.joins(this):
                await passenger.work(attempt)
            return result

        with self.tracing.span("transaction", kind="client", child_only=True) as span:
            committed = False
            try:
                with _bounded(self.timeout_s):
                    async with self._answering(self.patience_s), self._session() as session:
                        result = await _again_if_vanished(lambda: session.execute_write(unit))
                        committed = True
                for call in running._after_commit if running is not None else ():
                    call()
                return result
            except UNAVAILABLE as exc:
                raise self._retryable(exc) from exc
            finally:
                if passenger is not None:
                    passenger.settle(this, committed)
                if span is not None:  # above 1 when the driver retried a transient error
                    span.set_attribute("graphmem.attempts", attempts)

    async def run_schema(self, text: str, **params: Any) -> None:
        """Schema statements (constraints, indexes) cannot share a transaction with data;
        building an index is administrative work."""
        self.round_trips += 1
        with _bounded(self.admin_timeout_s):
            async with self._answering(self.max_retry_s + self.admin_timeout_s):
                await self.driver.execute_query(Query(text, timeout=self.admin_timeout_s),
                                                bolt.masked(params), database_=self.name)

    async def run_auto(self, name: str, /, **params: Any) -> None:
        """A statement that manages its own transactions (``CALL … IN TRANSACTIONS``): a
        migration's, administrative work."""
        self.round_trips += 1
        with self.span(name), _bounded(self.admin_timeout_s), _naming(name):
            async with (self._answering(self.max_retry_s + self.admin_timeout_s),
                        self.driver.session(database=self.name) as session):
                result = await session.run(Query(statement(name), timeout=self.admin_timeout_s),
                                           bolt.masked(params))
                await result.consume()

    def span(self, name: str) -> contextlib.AbstractContextManager[Any]:
        """A trace span for one named statement: its Cypher text, which holds no values (they
        are parameters), and never its parameters."""
        if not self.tracing.enabled:
            return contextlib.nullcontext()
        return self.tracing.span(f"cypher {name}", {
            "db.system.name": "neo4j", "db.namespace": self.name, "db.operation.name": name,
            "db.query.text": statement(name)}, kind="client", child_only=True)

    def _retryable(self, exc: Exception) -> GraphmemError:
        """What the client is told once the driver's own retries ran out: other writers held
        what this one needed (a deadlock, a lock wait), or Neo4j was away."""
        if isinstance(exc, TransientError) and ".Transaction." in (exc.code or ""):
            return ConcurrentChange("concurrent writes held what this one needed; retry")
        return DatabaseUnavailable(f"Neo4j at {self.uri} is unavailable")

    async def close(self) -> None:
        await self.driver.close()


def connection_target(settings: Settings) -> tuple[str, str, str]:
    """(uri, user, password): the configured server, or the local one graphmem runs."""
    if settings.uses_local_neo4j:
        from graphmem.local_neo4j import LocalNeo4j

        local = LocalNeo4j.from_settings(settings)
        local.check_not_anothers()
        return local.bolt_uri, "neo4j", local.password()
    if settings.neo4j_password is None:
        raise ConfigError("GRAPHMEM_NEO4J_PASSWORD is required when GRAPHMEM_NEO4J_URI is set")
    assert settings.neo4j_uri is not None
    return settings.neo4j_uri, settings.neo4j_user, settings.neo4j_password.get_secret_value()


def open_database(settings: Settings) -> Database:
    """Create the process's driver. It connects lazily; see ``wait_until_reachable``."""
    uri, user, password = connection_target(settings)
    bolt.install_fast_utc()
    # Notifications are for people writing Cypher in a console, not for service logs.
    # A request's worst case is its budget (``Database.patience_s``): the driver's retries
    # stop at ``neo4j_max_retry_s``, one connection takes at most CONNECT_S to open, and
    # waiting for a free one never outlasts the budget either.
    driver = AsyncGraphDatabase.driver(
        uri, auth=(user, password), notifications_min_severity="OFF",
        max_transaction_retry_time=settings.neo4j_max_retry_s,
        connection_timeout=min(CONNECT_S, settings.neo4j_timeout_s),
        connection_acquisition_timeout=settings.neo4j_max_retry_s + settings.neo4j_timeout_s)
    return Database(driver=driver, name=settings.neo4j_database, uri=uri,
                    max_retry_s=settings.neo4j_max_retry_s, timeout_s=settings.neo4j_timeout_s,
                    admin_timeout_s=settings.neo4j_admin_timeout_s)


async def wait_until_reachable(db: Database, timeout_s: float) -> None:
    """Retry with capped exponential backoff until Neo4j answers or ``timeout_s`` passes."""
    deadline = time.monotonic() + timeout_s
    delay = 0.25
    while True:
        try:
            await db.driver.verify_connectivity()
            return
        except AuthError:
            raise ConfigError(f"Neo4j at {db.uri} rejected the configured credentials") from None
        except (ServiceUnavailable, SessionExpired, OSError) as exc:
            if time.monotonic() + delay > deadline:
                raise DatabaseUnavailable(f"Neo4j at {db.uri} is unreachable: {exc}") from None
            log.warning("neo4j not reachable yet; retrying in %.2fs", delay)
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)


async def connect(settings: Settings) -> Database:
    """Open the driver and wait (bounded) until Neo4j answers: for the CLI and tests."""
    db = open_database(settings)
    try:
        await wait_until_reachable(db, settings.neo4j_connect_timeout_s)
    except BaseException:
        await db.close()
        raise
    return db
