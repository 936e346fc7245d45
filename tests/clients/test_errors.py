"""Each error code the service answers arrives as its typed error; only retryable ones retry."""

from __future__ import annotations

import json
from collections.abc import Callable

import httpx
import pytest
from graphmem_client import (
    AsyncMemory,
    ConcurrentChange,
    DatabaseUnavailable,
    DuplicateConflict,
    Forbidden,
    GraphmemError,
    GraphQLValidation,
    InvalidInput,
    Memory,
    NotFound,
    PayloadTooLarge,
    RateLimited,
    Turn,
    Unauthenticated,
    Unreachable,
    _http,
)
from starlette.applications import Starlette

from graphmem.db.database import Database
from graphmem.security.auth import create_key

Reply = tuple[int, dict[str, object], dict[str, str]]
RECALL: dict[str, object] = {"recall": {"pieces": [], "tokensUsed": 0, "tokenBudget": 1000}}


def _memory(app: Starlette, token: str, ns: str) -> AsyncMemory:
    return AsyncMemory("http://graphmem.test/graphql", token, ns,
                       transport=httpx.ASGITransport(app=app))


async def test_server_errors_are_typed(app: Starlette, admin_token: str, ns: str,
                                       db: Database) -> None:
    async with _memory(app, admin_token, ns) as memory:
        with pytest.raises(NotFound) as missing:
            await memory.why("fact_missing")
        assert (missing.value.code, missing.value.retryable) == ("NOT_FOUND", False)
        with pytest.raises(InvalidInput) as invalid:
            await memory.recall("anything", budget=1)
        assert invalid.value.code == "INVALID_INPUT" and invalid.value.field
        with pytest.raises(GraphQLValidation):
            await memory.search("anything", kinds=["planet"])
        await memory.record([Turn(content="first", external_id="m1")])
        with pytest.raises(DuplicateConflict) as duplicate:
            await memory.record([Turn(content="other", external_id="m1")])
        assert duplicate.value.extensions["external_id"] == "m1"
        with pytest.raises(PayloadTooLarge):
            await memory.record([Turn(content="x" * (9 * 1024 * 1024))])
        with pytest.raises(ValueError, match="exactly one"):
            await memory.forget(entity="Dana", namespace=True)
    async with _memory(app, "gm_not_a_key", ns) as stranger:
        with pytest.raises(Unauthenticated):
            await stranger.about("Dana")
    other = await create_key(db, "client-tests-other", grants=["elsewhere/*"], admin=False)
    async with _memory(app, other, ns) as outsider:
        with pytest.raises(Forbidden) as forbidden:
            await outsider.about("Dana")
        assert isinstance(forbidden.value, GraphmemError)


def _answers(
        *replies: Reply) -> tuple[list[httpx.Request], Callable[[httpx.Request], httpx.Response]]:
    """A scripted server: one reply per request, the last one repeated; records requests."""
    seen: list[httpx.Request] = []

    def reply(request: httpx.Request) -> httpx.Response:
        status, payload, headers = replies[min(len(seen), len(replies) - 1)]
        seen.append(request)
        return httpx.Response(status, content=json.dumps(payload), headers=headers)

    return seen, reply


def _error(code: str, retryable: bool = False) -> dict[str, object]:
    extensions: dict[str, object] = {"code": code, **({"retryable": True} if retryable else {})}
    return {"data": None, "errors": [{"message": code.lower(), "extensions": extensions}]}


OK: Reply = (200, {"data": RECALL}, {})


@pytest.fixture(autouse=True)
def no_waiting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_http, "BACKOFF_S", 0.001)
    monkeypatch.setattr(_http, "BACKOFF_CAP_S", 0.01)


@pytest.mark.parametrize(("reply", "error"), [
    ((503, _error("DATABASE_UNAVAILABLE", retryable=True), {}), DatabaseUnavailable),
    ((200, _error("CONCURRENT_CHANGE", retryable=True), {}), ConcurrentChange),
    ((429, _error("RATE_LIMITED", retryable=True), {"Retry-After": "1"}), RateLimited),
    ((503, {"detail": "not json graphql"}, {}), DatabaseUnavailable),
])
def test_retryable_errors_are_retried_then_raised(
        reply: Reply, error: type[GraphmemError]) -> None:
    seen, answer = _answers(reply, reply, OK)
    with Memory("http://x/graphql", "k", "ns", transport=httpx.MockTransport(answer)) as memory:
        assert memory.recall("q").tokens_used == 0
    assert len(seen) == 3
    seen, answer = _answers(reply)
    with Memory("http://x/graphql", "k", "ns", retries=2,
                transport=httpx.MockTransport(answer)) as memory, pytest.raises(error) as raised:
        memory.recall("q")
    assert len(seen) == 3 and raised.value.retryable


@pytest.mark.parametrize(("reply", "error"), [
    ((200, _error("NOT_FOUND"), {}), NotFound),
    ((200, _error("INVALID_INPUT"), {}), InvalidInput),
    ((200, _error("DUPLICATE_CONFLICT"), {}), DuplicateConflict),
    ((401, _error("UNAUTHENTICATED"), {}), Unauthenticated),
    ((200, _error("FORBIDDEN"), {}), Forbidden),
    ((500, {}, {}), GraphmemError),
])
def test_other_errors_are_not_retried(
        reply: Reply, error: type[GraphmemError]) -> None:
    seen, answer = _answers(reply, OK)
    with Memory("http://x/graphql", "k", "ns", transport=httpx.MockTransport(answer)) as memory, \
            pytest.raises(error) as raised:
        memory.recall("q")
    assert len(seen) == 1 and not raised.value.retryable


def test_transport_failures_retry_unless_a_write_may_have_been_applied() -> None:
    calls = []

    def flaky(request: httpx.Request) -> httpx.Response:
        calls.append(request)
        if len(calls) == 1:
            raise httpx.ConnectError("refused", request=request)  # never reached the server
        if len(calls) in (2, 4):
            raise httpx.ReadTimeout("slow", request=request)  # it may have
        return httpx.Response(200, json={"data": RECALL})

    with Memory("http://x/graphql", "k", "ns", transport=httpx.MockTransport(flaky)) as memory:
        assert memory.recall("q").text == ""  # refused, timed out, then answered: a read
        with pytest.raises(Unreachable) as raised:
            memory.retract("fact_x", reason="wrong")  # a retraction may have been applied
    assert len(calls) == 4 and not raised.value.retryable


async def test_the_async_client_retries_the_same_way() -> None:
    seen, answer = _answers((503, _error("DATABASE_UNAVAILABLE", retryable=True), {}), OK)
    async with AsyncMemory("http://x/graphql", "k", "ns",
                           transport=httpx.MockTransport(answer)) as memory:
        assert (await memory.recall("q")).pieces == []
    seen_again, answer = _answers((200, _error("NOT_FOUND"), {}), OK)
    async with AsyncMemory("http://x/graphql", "k", "ns",
                           transport=httpx.MockTransport(answer)) as memory:
        with pytest.raises(NotFound):
            await memory.why("fact_x")
    assert (len(seen), len(seen_again)) == (2, 1)


def test_a_url_that_is_not_graphmems_graphql_says_so(server_url: str, admin_token: str,
                                                     ns: str) -> None:
    service = server_url.removesuffix("/graphql")
    for bare in (service, f"{service}/"):  # no path: the service's /graphql
        with Memory(bare, admin_token, ns) as memory:
            assert memory.about("Dana") == []
            assert repr(memory) == f"Memory(url={server_url!r}, namespace={ns!r})"
    for wrong, status in ((f"{service}/graphq", 404), (f"{service}/console", 405)):
        with Memory(wrong, admin_token, ns, retries=0) as memory, \
                pytest.raises(GraphmemError) as raised:
            memory.about("Dana")
        assert raised.value.message.startswith(f"HTTP {status} from {wrong}: ")
        assert "not a GraphQL endpoint; check url= or GRAPHMEM_URL" in raised.value.message
        assert "/graphql" in raised.value.message and not raised.value.retryable
    for typo in ("127.0.0.1:8000/graphql", "localhost", "ftp://x/graphql"):
        with pytest.raises(ValueError, match="url must be an http\\(s\\) URL like"):
            Memory(typo, admin_token, ns)
    with Memory(server_url, admin_token, ns) as memory, pytest.raises(NotFound) as missing:
        memory.why("fact_missing")  # graphmem's own errors keep their words
    assert "GraphQL endpoint" not in missing.value.message


def test_a_page_answering_200_is_not_taken_for_graphql() -> None:
    _, page = _answers((200, {"html": "a proxy's sign-in page"}, {}))
    with Memory("http://x/app", "k", "ns", transport=httpx.MockTransport(page)) as memory, \
            pytest.raises(GraphmemError, match="HTTP 200 from http://x/app: not a GraphQL "):
        memory.recall("q")


def test_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHMEM_URL", "http://memory.example/graphql")
    monkeypatch.setenv("GRAPHMEM_KEY", "gm_secret")
    monkeypatch.setenv("GRAPHMEM_NAMESPACE", "acme/user-1")
    with Memory() as memory:
        assert memory.namespace == "acme/user-1" and "gm_secret" not in repr(memory)
    monkeypatch.delenv("GRAPHMEM_NAMESPACE")
    with pytest.raises(ValueError, match="GRAPHMEM_NAMESPACE"):
        Memory()
