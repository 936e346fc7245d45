"""``Memory`` (sync) and ``AsyncMemory``: an agent's memory in a few calls.

Quick start::

    from graphmem_client import Memory

    with Memory(namespace="acme/user-42") as memory:   # GRAPHMEM_URL, GRAPHMEM_KEY from env
        turns = memory.record([{"role": "user", "content": "I just started at Acme Robotics"}],
                              session_id="chat-1")
        memory.remember("user", "works_at", "Acme Robotics", evidence=turns.episode_ids)
        print(memory.recall("Where do I work?", session_id="chat-1").text)

Both classes drive the same calls (``_operations``: one generator per method, which yields
its GraphQL requests); only the HTTP loop differs. Failures are typed (``errors``); the ones
the server calls retryable (and 429, 503) are retried with backoff, nothing else.
"""

from __future__ import annotations

import asyncio
import copy
import time
from collections.abc import Iterable
from datetime import datetime
from types import TracebackType
from typing import Any, Literal, Self, TypeVar, overload

import httpx

from graphmem_client import _http
from graphmem_client import _operations as ops
from graphmem_client.errors import GraphmemError
from graphmem_client.models import (
    Conflict,
    Entity,
    ErasurePlan,
    Fact,
    Hit,
    PredicatePolicy,
    Provenance,
    Recall,
    Receipt,
    RecordResult,
    Remembered,
    Summary,
    Turn,
)

T = TypeVar("T")
Value = str | int | float | bool
Moment = datetime | str | None
Source = Literal["user_statement", "user_correction", "agent_assertion", "extraction",
                 "inference", "import"]
Cardinality = Literal["one", "many"]
Strategy = Literal["recency", "confidence", "source_priority", "manual"]
Mentions = Literal["keep", "redact", "erase"]


class Memory:
    """Memory of one namespace (usually one end user), over graphmem's GraphQL API.

    ``url`` defaults to GRAPHMEM_URL, else http://127.0.0.1:8000/graphql; ``key`` to
    GRAPHMEM_KEY; ``namespace`` to GRAPHMEM_NAMESPACE (one or the other is required).
    ``retries``: extra attempts for retryable failures, and for reads and idempotent writes
    (recording, asserting) whose answer was lost. ``timeout``: 60 s, longer than the server's
    own retry budget (GRAPHMEM_NEO4J_MAX_RETRY_S, 30 s), so the server's typed answer comes
    before the client gives up. ``transport``: an httpx transport (tests, proxies).
    """

    def __init__(self, url: str | None = None, key: str | None = None,
                 namespace: str | None = None, *, timeout: float = 60.0, retries: int = 3,
                 transport: httpx.BaseTransport | None = None) -> None:
        self._settings = _http.Settings.read(url, key, namespace, timeout, retries)
        self._http = httpx.Client(headers=self._settings.headers, timeout=timeout,
                                  transport=transport)
        self._owns_http = True

    @property
    def namespace(self) -> str:
        return self._settings.namespace

    def for_namespace(self, namespace: str) -> Memory:
        """The memory of another namespace (another end user) over this one's connections,
        key and settings: a service that serves many users keeps one ``Memory`` and takes a
        view per user (a new ``Memory`` builds its own connection pool and TLS context,
        about 45 ms of CPU). Closing a view leaves the connections open; closing this
        ``Memory`` closes them for its views too."""
        view = copy.copy(self)
        view._settings, view._owns_http = self._settings.of_namespace(namespace), False
        return view

    def record(self, turns: Iterable[Turn | dict[str, Any]], *,
               session_id: str | None = None) -> RecordResult:
        """Log turns verbatim, oldest first; sending them again (or more of them) is safe."""
        return self.run(ops.record(self.namespace, turns, session_id))

    def remember(self, subject: str, predicate: str, object: Value, *,
                 evidence: list[str] | None = None, valid_from: Moment = None,
                 valid_to: Moment = None, confidence: float | None = None,
                 source: Source | None = None) -> Remembered:
        """Assert ``subject predicate object`` (a string object names an entity).
        ``evidence``: episode ids (``record(...).episode_ids``) or externalIds. ``source``:
        who said it, ``agent_assertion`` by default (``user_statement`` outranks it under
        SOURCE_PRIORITY)."""
        return self.run(ops.remember(self.namespace, subject, predicate, object, evidence,
                                      valid_from, valid_to, confidence, source))

    def recall(self, query: str, *, budget: int = 1000, session_id: str | None = None,
               as_of: datetime | str | None = None) -> Recall:
        """What to know for this turn, within ``budget`` tokens; ``.text`` goes in the prompt.
        ``as_of``: as memory stood then (facts believed and valid at that instant, turns
        before it; a naive datetime is UTC)."""
        return self.run(ops.recall(self.namespace, query, budget, session_id, as_of))

    def search(self, query: str, *, limit: int = 10,
               kinds: list[str] | None = None) -> list[Hit]:
        """Hybrid search over episodes, facts, summaries, entities (``kinds`` narrows it)."""
        return self.run(ops.search(self.namespace, query, limit, kinds))

    def about(self, entity: str, *, valid_at: Moment = None,
              as_of: Moment = None) -> list[Fact]:
        """Facts with the entity as subject or object (the newest 200 of each): current ones,
        or those true in the world at ``valid_at`` as memory believed them at ``as_of``
        (either alone: ``as_of`` alone reads what was believed then and valid then)."""
        return self.run(ops.about(self.namespace, entity, valid_at, as_of))

    def history(self, subject: str, predicate: str | None = None) -> list[Fact]:
        """Every version of the subject's facts (of one predicate), newest first, whatever
        its status: when each was believed, and who ended it, when and why."""
        return self.run(ops.history(self.namespace, subject, predicate))

    def why(self, fact_id: str) -> Provenance:
        """Evidence episodes, citing summaries and supersession of one fact."""
        return self.run(ops.why(self.namespace, fact_id))

    def correct(self, fact_id: str, object: Value, *, reason: str,
                evidence: list[str] | None = None) -> Fact:
        """Replace a fact's object; the old fact stays as superseded history. ``evidence``:
        the episodes that say so (the user's turn), beside graphmem's note of the change."""
        return self.run(ops.correct(self.namespace, fact_id, object, reason, evidence))

    def retract(self, fact_id: str, *, reason: str) -> Fact:
        """Withdraw a fact; it stays as retracted history."""
        return self.run(ops.retract(self.namespace, fact_id, reason))

    @overload
    def forget(self, *, entity: str, mentions: Mentions = ...,
               dry_run: Literal[True]) -> ErasurePlan: ...

    @overload
    def forget(self, *, entity: str | None = ..., episodes: list[str] | None = ...,
               namespace: bool = ..., mentions: Mentions = ...,
               dry_run: Literal[False] = ...) -> Receipt: ...

    def forget(self, *, entity: str | None = None, episodes: list[str] | None = None,
               namespace: bool = False, mentions: Mentions = "keep",
               dry_run: bool = False) -> Receipt | ErasurePlan:
        """Erase an entity's facts, some episodes, or (``namespace=True``) everything.

        For an entity, ``mentions`` says what happens to the turns that name it (its name or
        an alias, as a whole word): ``"keep"`` them, ``"redact"`` each mention (the rest of
        the turn stays) or ``"erase"`` them. ``dry_run=True`` returns the ``ErasurePlan`` —
        the facts, turns and summaries that would go — and writes nothing::

            plan = memory.forget(entity="Biscuit", mentions="redact", dry_run=True)
            receipt = memory.forget(entity="Biscuit", mentions="redact")
        """
        if dry_run:
            return self.run(ops.forget_plan(self.namespace, entity, episodes, namespace,
                                            mentions))
        return self.run(ops.forget(self.namespace, entity, episodes, namespace, mentions))

    def conflicts(self) -> list[Conflict]:
        """Open conflicts, newest first."""
        return self.run(ops.conflicts(self.namespace))

    def resolve(self, conflict_id: str, keep: str, *, reason: str) -> Conflict:
        """Settle a conflict by keeping the candidate fact ``keep``."""
        return self.run(ops.resolve(self.namespace, conflict_id, keep, reason))

    def alias(self, entity: str, alias: str) -> Entity:
        """Make ``alias`` another name of ``entity`` (e.g. ``alias("user", "Dana")``)."""
        return self.run(ops.alias(self.namespace, entity, alias))

    def set_policy(self, predicate: str, cardinality: Cardinality,
                   strategy: Strategy = "recency") -> PredicatePolicy:
        """How ``predicate`` resolves competing values in this namespace, for later writes."""
        return self.run(ops.set_policy(self.namespace, predicate, cardinality, strategy))

    def summary(self, session_id: str) -> Summary | None:
        """The freshest summary of a conversation, or None before there is one."""
        return self.run(ops.summary(self.namespace, session_id))

    def close(self) -> None:
        if self._owns_http:
            self._http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_: type[BaseException] | BaseException | TracebackType | None) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Memory(url={self._settings.url!r}, namespace={self.namespace!r})"

    def run(self, steps: ops.Steps[T]) -> T:
        """Run a composed operation on this connection: a generator that yields GraphQL
        ``Call``s and receives their data (how every method here is written, and how the
        adapters compose their own); same key, retries and typed errors."""
        try:
            call = next(steps)
            while True:
                try:
                    data = self._execute(call)
                except GraphmemError as error:  # the call may handle it (record shrinks a batch)
                    call = steps.throw(error)
                else:
                    call = steps.send(data)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]

    def _execute(self, call: ops.Call) -> dict[str, Any]:
        attempt = 0
        while True:
            response = None
            try:
                response = self._http.post(self._settings.url, json=_http.body(call))
                return _http.data_of(response)
            except httpx.TransportError as error:
                failure = _http.unreachable(error, call.repeatable)
            except GraphmemError as error:
                failure = error
            wait = _http.delay(failure, attempt, self._settings.retries, response)
            if wait is None:
                raise failure
            time.sleep(wait)
            attempt += 1


class AsyncMemory:
    """``Memory`` for asyncio: the same methods, awaited; ``async with AsyncMemory() as m``."""

    def __init__(self, url: str | None = None, key: str | None = None,
                 namespace: str | None = None, *, timeout: float = 60.0, retries: int = 3,
                 transport: httpx.AsyncBaseTransport | None = None) -> None:
        self._settings = _http.Settings.read(url, key, namespace, timeout, retries)
        self._http = httpx.AsyncClient(headers=self._settings.headers, timeout=timeout,
                                       transport=transport)
        self._owns_http = True

    @property
    def namespace(self) -> str:
        return self._settings.namespace

    def for_namespace(self, namespace: str) -> AsyncMemory:
        """``Memory.for_namespace``: another namespace over this one's connections."""
        view = copy.copy(self)
        view._settings, view._owns_http = self._settings.of_namespace(namespace), False
        return view

    async def record(self, turns: Iterable[Turn | dict[str, Any]], *,
                     session_id: str | None = None) -> RecordResult:
        """See ``Memory.record``."""
        return await self.run(ops.record(self.namespace, turns, session_id))

    async def remember(self, subject: str, predicate: str, object: Value, *,
                       evidence: list[str] | None = None, valid_from: Moment = None,
                       valid_to: Moment = None, confidence: float | None = None,
                       source: Source | None = None) -> Remembered:
        """See ``Memory.remember``."""
        return await self.run(ops.remember(self.namespace, subject, predicate, object,
                                            evidence, valid_from, valid_to, confidence, source))

    async def recall(self, query: str, *, budget: int = 1000, session_id: str | None = None,
                     as_of: datetime | str | None = None) -> Recall:
        """See ``Memory.recall``."""
        return await self.run(ops.recall(self.namespace, query, budget, session_id, as_of))

    async def search(self, query: str, *, limit: int = 10,
                     kinds: list[str] | None = None) -> list[Hit]:
        """See ``Memory.search``."""
        return await self.run(ops.search(self.namespace, query, limit, kinds))

    async def about(self, entity: str, *, valid_at: Moment = None,
                    as_of: Moment = None) -> list[Fact]:
        """See ``Memory.about``."""
        return await self.run(ops.about(self.namespace, entity, valid_at, as_of))

    async def history(self, subject: str, predicate: str | None = None) -> list[Fact]:
        """See ``Memory.history``."""
        return await self.run(ops.history(self.namespace, subject, predicate))

    async def why(self, fact_id: str) -> Provenance:
        """See ``Memory.why``."""
        return await self.run(ops.why(self.namespace, fact_id))

    async def correct(self, fact_id: str, object: Value, *, reason: str,
                      evidence: list[str] | None = None) -> Fact:
        """See ``Memory.correct``."""
        return await self.run(ops.correct(self.namespace, fact_id, object, reason, evidence))

    async def retract(self, fact_id: str, *, reason: str) -> Fact:
        """See ``Memory.retract``."""
        return await self.run(ops.retract(self.namespace, fact_id, reason))

    @overload
    async def forget(self, *, entity: str, mentions: Mentions = ...,
                     dry_run: Literal[True]) -> ErasurePlan: ...

    @overload
    async def forget(self, *, entity: str | None = ..., episodes: list[str] | None = ...,
                     namespace: bool = ..., mentions: Mentions = ...,
                     dry_run: Literal[False] = ...) -> Receipt: ...

    async def forget(self, *, entity: str | None = None, episodes: list[str] | None = None,
                     namespace: bool = False, mentions: Mentions = "keep",
                     dry_run: bool = False) -> Receipt | ErasurePlan:
        """See ``Memory.forget``."""
        if dry_run:
            return await self.run(ops.forget_plan(self.namespace, entity, episodes, namespace,
                                                  mentions))
        return await self.run(ops.forget(self.namespace, entity, episodes, namespace,
                                         mentions))

    async def conflicts(self) -> list[Conflict]:
        """See ``Memory.conflicts``."""
        return await self.run(ops.conflicts(self.namespace))

    async def resolve(self, conflict_id: str, keep: str, *, reason: str) -> Conflict:
        """See ``Memory.resolve``."""
        return await self.run(ops.resolve(self.namespace, conflict_id, keep, reason))

    async def alias(self, entity: str, alias: str) -> Entity:
        """See ``Memory.alias``."""
        return await self.run(ops.alias(self.namespace, entity, alias))

    async def set_policy(self, predicate: str, cardinality: Cardinality,
                         strategy: Strategy = "recency") -> PredicatePolicy:
        """See ``Memory.set_policy``."""
        return await self.run(ops.set_policy(self.namespace, predicate, cardinality, strategy))

    async def summary(self, session_id: str) -> Summary | None:
        """See ``Memory.summary``."""
        return await self.run(ops.summary(self.namespace, session_id))

    async def aclose(self) -> None:
        if self._owns_http:
            await self._http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *_: type[BaseException] | BaseException | TracebackType | None,
                        ) -> None:
        await self.aclose()

    def __repr__(self) -> str:
        return f"AsyncMemory(url={self._settings.url!r}, namespace={self.namespace!r})"

    async def run(self, steps: ops.Steps[T]) -> T:
        """The async twin of ``Memory.run``."""
        try:
            call = next(steps)
            while True:
                try:
                    data = await self._execute(call)
                except GraphmemError as error:  # the call may handle it (record shrinks a batch)
                    call = steps.throw(error)
                else:
                    call = steps.send(data)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]

    async def _execute(self, call: ops.Call) -> dict[str, Any]:
        attempt = 0
        while True:
            response = None
            try:
                response = await self._http.post(self._settings.url, json=_http.body(call))
                return _http.data_of(response)
            except httpx.TransportError as error:
                failure = _http.unreachable(error, call.repeatable)
            except GraphmemError as error:
                failure = error
            wait = _http.delay(failure, attempt, self._settings.retries, response)
            if wait is None:
                raise failure
            await asyncio.sleep(wait)
            attempt += 1
