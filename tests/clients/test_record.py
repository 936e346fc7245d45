"""`record` uploads in batches that fit the server, and an interrupted upload resumes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
import pytest
from graphmem_client import AsyncMemory, Turn, Unreachable, _operations
from starlette.applications import Starlette

T0 = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)


def _turns(count: int) -> list[Turn]:
    return [Turn(role="user" if i % 2 == 0 else "assistant", content=f"turn {i}: ok",
                 occurred_at=T0 + timedelta(seconds=i)) for i in range(count)]


class _Interrupted(httpx.AsyncBaseTransport):
    """The app, until ``fail_after`` requests went through; then the network drops."""

    def __init__(self, app: Starlette, fail_after: int) -> None:
        self.inner = httpx.ASGITransport(app=app)
        self.fail_after = fail_after
        self.sent = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.sent >= self.fail_after:
            raise httpx.ReadError("connection reset", request=request)
        self.sent += 1
        return await self.inner.handle_async_request(request)


class _AnswerLost(httpx.AsyncBaseTransport):
    """The app; but the answer to the first request is lost after the server handled it (a
    client timeout while the server was still retrying), as a ReadTimeout."""

    def __init__(self, app: Starlette) -> None:
        self.inner = httpx.ASGITransport(app=app)
        self.sent = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.sent += 1
        response = await self.inner.handle_async_request(request)
        if self.sent == 1:
            await response.aread()
            raise httpx.ReadTimeout("the answer did not come in time", request=request)
        return response


async def _episodes(app: Starlette, token: str, ns: str) -> list[str]:
    query = """query($ns: String!) { episodes(namespace: $ns, where: {sessionId: "log"},
               first: 200) { nodes { content } } }"""
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app)) as raw:
        answer = await raw.post("http://graphmem.test/graphql", json={
            "query": query, "variables": {"ns": ns}}, headers={"Authorization": f"Bearer {token}"})
    return [node["content"] for node in answer.json()["data"]["episodes"]["nodes"]]


async def test_a_resumed_upload_writes_each_episode_once(
        app: Starlette, admin_token: str, ns: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_operations, "BATCH", 4)
    url = "http://graphmem.test/graphql"
    dropping = _Interrupted(app, fail_after=2)
    async with AsyncMemory(url, admin_token, ns, transport=dropping) as memory:
        with pytest.raises(Unreachable):
            await memory.record(_turns(10), session_id="log")
    assert len(await _episodes(app, admin_token, ns)) == 8  # two batches of four went through

    async with AsyncMemory(url, admin_token, ns, transport=httpx.ASGITransport(app=app)) as memory:
        resumed = await memory.record(_turns(14), session_id="log")  # a superset, from the start
    assert (resumed.created, resumed.duplicates, resumed.batches) == (6, 8, 4)
    assert await _episodes(app, admin_token, ns) == [turn.content for turn in _turns(14)]


async def test_batches_shrink_to_the_cap_the_server_names(
        app: Starlette, admin_token: str, ns: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_operations, "BATCH", 5000)  # more than the server's 1000
    async with AsyncMemory("http://graphmem.test/graphql", admin_token, ns,
                           transport=httpx.ASGITransport(app=app)) as memory:
        recorded = await memory.record(
            [{"role": "user", "content": f"line {i}"} for i in range(1001)], session_id="big")
    assert (recorded.created, recorded.batches, len(set(recorded.episode_ids))) == (1001, 2, 1001)


def test_turns_without_an_id_get_a_stable_one() -> None:
    first = Turn(content="ok", occurred_at=T0).episode(0, "s", T0)
    assert first == Turn(content="ok", occurred_at=T0).episode(0, "s", T0)
    assert first["externalId"] != Turn(content="ok", occurred_at=T0).episode(1, "s", T0)[
        "externalId"]
    assert Turn(content="ok", external_id="msg-7").episode(0, None, T0)["externalId"] == "msg-7"
    assert Turn(content="x", role="tool").episode(0, None, T0)["kind"] == "TOOL_RESULT"
    with pytest.raises(ValueError, match="unknown role"):
        Turn(content="x", role="narrator").episode(0, None, T0)


async def test_a_write_whose_answer_was_lost_is_sent_again_and_written_once(
        app: Starlette, admin_token: str, ns: str) -> None:
    """The server committed the batch; the client timed out before its answer. Recording is
    idempotent by externalId, so the client sends it again rather than report a failure for
    a write that was committed."""
    lost = _AnswerLost(app)
    async with AsyncMemory("http://graphmem.test/graphql", admin_token, ns, transport=lost,
                           ) as memory:
        result = await memory.record(_turns(3), session_id="log")
    assert lost.sent == 2 and (result.created, result.duplicates) == (0, 3)
    assert await _episodes(app, admin_token, ns) == [turn.content for turn in _turns(3)]
