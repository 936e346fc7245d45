"""``/graphql`` over a WebSocket (``graphql-transport-ws``): the same policy as HTTP, held for
as long as the socket is open.

- The key comes in ``connection_init`` (browsers cannot set headers on a WebSocket) and is
  checked there, and again for every operation, through the gate's cache: a revoked key's
  socket is closed (4403) at its next operation, and a watch closes it within
  ``auth_cache_s`` while only subscriptions run.
- Every operation is charged to the key's rate and checked for valid Unicode, as an HTTP
  request is; a message over ``max_body_bytes`` closes the socket (1009).
- Every operation runs with a context of its own: DataLoaders live for one operation, so what
  an erasure removed is never served from an earlier operation's cache.
- A key holds at most ``max_sockets_per_key`` sockets in a process (4429 past it); a socket with
  nothing running and nothing said for ``socket_idle_s`` is closed (1000).
- A message that is not a protocol message (``[]``, a string, a subscribe without a query)
  closes the socket (4400), never an error in the log.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncGenerator, Mapping
from contextlib import suppress
from dataclasses import replace
from datetime import timedelta
from typing import TYPE_CHECKING, Any, cast

from graphql import GraphQLFormattedError
from starlette.websockets import WebSocketDisconnect, WebSocketState
from strawberry.asgi import ASGIWebSocketAdapter
from strawberry.http.exceptions import NonJsonMessageReceived, NonTextMessageReceived
from strawberry.subscriptions.protocols.graphql_transport_ws.handlers import (
    BaseGraphQLTransportWSHandler,
)
from strawberry.subscriptions.protocols.graphql_transport_ws.types import (
    ConnectionInitMessage,
    ErrorMessage,
    Message,
    SubscribeMessage,
)

from graphmem.api.server.context import Context
from graphmem.api.server.gate import Gate, Unreadable
from graphmem.core.errors import GraphmemError, PayloadTooLarge, Unauthenticated
from graphmem.security.auth import Principal

if TYPE_CHECKING:
    from strawberry.schema import BaseSchema

    from graphmem.api.server.http import GraphQLView

# graphql-ws clients send `connection_init` at once; an unauthenticated socket is not kept
# waiting for it longer than this (strawberry's default is a minute).
INIT_TIMEOUT = timedelta(seconds=10)
FORBIDDEN = 4403  # the protocol's code for a refused key
TOO_MANY = 4429


class SocketAdapter(ASGIWebSocketAdapter):
    """Reads messages with the gate's size cap: a message over it closes the socket (1009)
    before it is parsed."""

    async def iter_json(self, *, ignore_parsing_errors: bool = False,
                        ) -> AsyncGenerator[object, None]:
        gate: Gate = self.view.gate  # type: ignore[attr-defined]
        try:
            while self.ws.application_state != WebSocketState.DISCONNECTED:
                text = await self.ws.receive_text()
                try:
                    gate.check_size(text)
                except PayloadTooLarge as exc:
                    await self.ws.close(code=1009, reason=exc.message)
                    return
                try:
                    yield self.view.decode_json(text)
                except (ValueError, Unreadable) as exc:
                    raise NonJsonMessageReceived from exc
        except KeyError as exc:  # a binary frame
            raise NonTextMessageReceived from exc
        except WebSocketDisconnect:
            pass


class _PerOperation:
    """The schema as the socket's handler sees it: strawberry's handler gives every operation
    the connection's context; each gets a copy of its own, with fresh loaders."""

    def __init__(self, schema: Any) -> None:
        self._schema = schema

    async def stream(self, query: str, *, context_value: Context, **kwargs: Any) -> Any:
        own = replace(context_value, loaders={}, answer_bytes=0)
        return await self._schema.stream(query, context_value=own, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._schema, name)


class SocketHandler(BaseGraphQLTransportWSHandler[Context, None]):
    def __init__(self, view: GraphQLView, websocket: Any, context: Context,
                 root_value: None, schema: Any, connection_init_wait_timeout: timedelta,
                 max_subscriptions_per_connection: int | None = None) -> None:
        super().__init__(view, websocket, context, root_value,
                         cast("BaseSchema", _PerOperation(schema)),
                         min(connection_init_wait_timeout, INIT_TIMEOUT),
                         max_subscriptions_per_connection)
        self.gate: Gate = view.gate
        self.authorization: str | None = None
        self.counted: Principal | None = None  # counted against its key's sockets
        self.last_heard = time.monotonic()
        self.watch: asyncio.Task[None] | None = None

    async def handle_message(self, message: Message) -> None:
        self.last_heard = time.monotonic()
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            await self.handle_invalid_message("a message is a JSON object with a type")
            return
        if message["type"] == "subscribe" and not _well_formed(message):
            await self.handle_invalid_message("a subscribe message needs an id and a payload "
                                              "with a query")
            return
        await super().handle_message(message)

    async def handle_connection_init(self, message: ConnectionInitMessage) -> None:
        payload = message.get("payload", {})
        if self.connection_init_received or not isinstance(payload, dict):
            await super().handle_connection_init(message)  # closes, with the protocol's code
            return
        header = payload.get("Authorization") or payload.get("authorization")
        self.authorization = header if isinstance(header, str) else None
        try:
            principal = await self.gate.principal(self.context.db, self.authorization)
        except Unauthenticated:
            await self.websocket.close(code=FORBIDDEN, reason="Forbidden")
            return
        except GraphmemError as exc:  # not ready, Neo4j unreachable: the client may try again
            await self.websocket.close(code=1013, reason=exc.message[:120])
            return
        if not self.gate.open_socket(principal):
            cap = self.gate.settings.max_sockets_per_key
            await self.websocket.close(code=TOO_MANY, reason="too many open sockets for this "
                                                             f"API key (at most {cap})")
            return
        self.counted = principal
        self.context.principal = principal
        await super().handle_connection_init(message)
        if self.connection_acknowledged:
            self.watch = asyncio.create_task(self._watch())
            self.watch.add_done_callback(self._task_done)

    async def handle_subscribe(self, message: SubscribeMessage) -> None:
        if not self.connection_acknowledged or message["id"] in self.operations:
            await super().handle_subscribe(message)  # closes, with the protocol's code
            return
        try:
            self.context.principal = await self.gate.admit(self.context.db, self.authorization)
            self.gate.check_unicode(message["payload"])
        except Unauthenticated:
            await self.websocket.close(code=FORBIDDEN, reason="Forbidden: the API key is no "
                                                              "longer valid")
            return
        except GraphmemError as exc:
            await self.send_message(ErrorMessage(id=message["id"], type="error",
                                                 payload=[_typed(exc)]))
            return
        await super().handle_subscribe(message)

    async def _watch(self) -> None:
        """Close the socket once its key is revoked, or once it has idled too long."""
        every = min(max(self.gate.settings.auth_cache_s / 2, 1.0), 30.0)
        idle_s = self.gate.settings.socket_idle_s
        while True:
            await asyncio.sleep(min(every, idle_s))
            if not self.operations and time.monotonic() - self.last_heard > idle_s:
                await self.websocket.close(code=1000, reason=f"idle for {idle_s:g} s")
                return
            try:
                await self.gate.principal(self.context.db, self.authorization)
            except Unauthenticated:
                await self.websocket.close(code=FORBIDDEN, reason="Forbidden: the API key is "
                                                                  "no longer valid")
                return
            except GraphmemError:
                continue  # Neo4j unreachable: the next operation's check will say so

    async def shutdown(self) -> None:
        if self.watch is not None:
            self.watch.cancel()
            with suppress(asyncio.CancelledError):
                await self.watch
        if self.counted is not None:
            self.gate.close_socket(self.counted)
            self.counted = None
        await super().shutdown()


def _well_formed(message: Mapping[str, Any]) -> bool:
    payload = message.get("payload")
    return (isinstance(message.get("id"), str) and isinstance(payload, dict)
            and isinstance(payload.get("query"), str) and payload["query"].strip() != ""
            and isinstance(payload.get("variables", {}), dict | None)
            and isinstance(payload.get("operationName", ""), str | None))


def _typed(exc: GraphmemError) -> GraphQLFormattedError:
    extensions: dict[str, object] = {"code": exc.code, **exc.details}
    if exc.retryable:
        extensions["retryable"] = True
    return {"message": exc.message, "extensions": extensions}
