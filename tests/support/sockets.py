"""A graphql-transport-ws client for tests against a served graphmem: connect with a key, run
an operation and read its messages, learn how the server closed the socket."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import websockets
from websockets.asyncio.client import ClientConnection


@asynccontextmanager
async def socket(url: str, key: str | None, *, init: bool = True,
                 ) -> AsyncIterator[ClientConnection]:
    """A WebSocket on ``/graphql``, acknowledged for ``key`` when ``init``."""
    async with websockets.connect(url.replace("http", "ws") + "/graphql",
                                  subprotocols=["graphql-transport-ws"],  # type: ignore[list-item]
                                  max_size=None) as ws:
        if init:
            await ws.send(json.dumps({"type": "connection_init",
                                      "payload": {"Authorization": f"Bearer {key}"}}))
            assert json.loads(await ws.recv())["type"] == "connection_ack"
        yield ws


async def operate(ws: ClientConnection, op_id: str, query: str,
                  **variables: Any) -> list[dict[str, Any]]:
    """Send one query or mutation; its messages up to its `complete` or `error`."""
    await ws.send(json.dumps({"id": op_id, "type": "subscribe",
                              "payload": {"query": query, "variables": variables}}))
    messages = []
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 30))
        if message.get("id") != op_id:
            continue
        messages.append(message)
        if message["type"] in ("complete", "error"):
            return messages


def data(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The one result of an operation that must have succeeded."""
    nexts = [m["payload"] for m in messages if m["type"] == "next"]
    assert len(nexts) == 1 and not nexts[0].get("errors"), messages
    result: dict[str, Any] = nexts[0]["data"]
    return result


def error_codes(messages: list[dict[str, Any]]) -> list[str]:
    """The codes of an operation's errors, whether refused before it ran or while it ran."""
    errors = [e for m in messages if m["type"] == "error" for e in m["payload"]]
    errors += [e for m in messages if m["type"] == "next" for e in m["payload"].get("errors", [])]
    return [e.get("extensions", {}).get("code", "") for e in errors]


async def close_code(ws: ClientConnection, within_s: float) -> int | None:
    """How the server closed the socket (waiting at most ``within_s``); None: still open."""
    try:
        while True:
            await asyncio.wait_for(ws.recv(), within_s)
    except websockets.ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd is not None else 1006
    except TimeoutError:
        return None
