"""``/graphql`` over HTTP: body-size cap and API-key check *before* GraphQL runs, so an
unauthenticated request never reaches the memory graph; then strawberry's ASGI view. Over a
WebSocket (subscriptions, ``graphql-transport-ws``), the key comes in ``connection_init`` and
is checked before the connection is acknowledged."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from strawberry.asgi import GraphQL
from strawberry.exceptions import ConnectionRejectionError
from strawberry.subscriptions import GRAPHQL_TRANSPORT_WS_PROTOCOL
from strawberry.types.unset import UnsetType

from graphmem.api.context import Context, Subscriptions
from graphmem.api.schema import build_schema
from graphmem.core.config import Settings
from graphmem.core.errors import GraphmemError, Unauthenticated
from graphmem.observability import tracing
from graphmem.observability.logs import request_id
from graphmem.retrieval import background
from graphmem.security.auth import ANONYMOUS_ADMIN, NOBODY, KeyCache, Principal, authenticate
from graphmem.security.rate_limit import RateLimiter


class _UnreadableBody(Exception):
    """The body cannot be decoded as JSON by the parser (not a syntax error: strawberry
    answers those itself)."""


class _GraphQLView(GraphQL[Context, None]):
    def __init__(self, settings: Settings, keys: KeyCache) -> None:
        super().__init__(build_schema(settings), graphql_ide=None,
                         subscription_protocols=(GRAPHQL_TRANSPORT_WS_PROTOCOL,),
                         max_subscriptions_per_connection=settings.max_subscriptions_per_socket)
        self.settings = settings
        self.keys = keys
        self.subscriptions = Subscriptions()

    def decode_json(self, data: str | bytes) -> object:
        """JSON nested deeper than the parser's stack (metadata 980 levels deep) or bytes that
        are not UTF-8 are the client's error, answered as a typed 400, not a plain 500."""
        try:
            return json.loads(data)
        except (RecursionError, UnicodeDecodeError) as exc:
            raise _UnreadableBody(type(exc).__name__) from exc

    def encode_json(self, data: object) -> str:
        """The answer, unless it is larger than ``max_response_bytes``: then a typed error
        (30 aliases of a page of 1 MB documents built a 208 MB answer)."""
        text = json.dumps(data, separators=(",", ":"))
        limit = self.settings.max_response_bytes
        if len(text) > limit // 4 and len(text.encode()) > limit:
            return json.dumps({"data": None, "errors": [{
                "message": f"the answer is larger than {limit} bytes; ask for less (fewer "
                           "aliases, fields or smaller pages)",
                "extensions": {"code": "QUERY_TOO_COSTLY", "limit": limit}}]})
        return text

    async def get_context(self, request: Any, response: Any) -> Context:
        runtime = request.app.state.runtime
        # Absent only for the GraphiQL page itself, which runs no operation.
        principal: Principal = request.scope.get("graphmem.principal", NOBODY)
        return Context(db=runtime.db, principal=principal, settings=self.settings,
                       embedder=runtime.embedder, fact_cache=runtime.fact_cache,
                       usage=runtime.usage,
                       worker=runtime.worker, subscriptions=self.subscriptions)

    async def on_ws_connect(self, context: Context) -> UnsetType | dict[str, object] | None:
        """A subscription's key, as ``Authorization: Bearer …`` in ``connection_init``'s
        payload (browsers cannot set headers on a WebSocket); refused: closed with 4403."""
        if not self.settings.auth_required:
            context.principal = ANONYMOUS_ADMIN
            return await super().on_ws_connect(context)
        params = context.connection_params if isinstance(context.connection_params, dict) \
            else {}
        header = params.get("Authorization") or params.get("authorization")
        try:
            context.principal = await authenticate(
                context.db, header if isinstance(header, str) else None, self.keys)
        except GraphmemError:
            raise ConnectionRejectionError from None
        return await super().on_ws_connect(context)


class GraphQLEndpoint:
    """ASGI app for ``/graphql``: limits, authentication, then the GraphQL view. ``ide`` answers
    a GET without a query: the GraphiQL page, served from local files (None: not served)."""

    def __init__(self, settings: Settings, ide: ASGIApp | None = None) -> None:
        self.settings = settings
        self.ide = ide
        self.keys = KeyCache(settings.auth_cache_s)
        self.view = _GraphQLView(settings, self.keys)
        self.limiter = RateLimiter(settings.rate_limit_per_process)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        if request.method == "GET" and "query" not in request.query_params:
            # The GraphiQL page itself holds no data; it asks with the key its user types.
            page = self.ide or _error(404, "NOT_FOUND", "GraphiQL is off (GRAPHMEM_GRAPHIQL)")
            await page(scope, receive, send)
            return
        with tracing.server_span("graphql", request.headers,
                                 {"graphmem.request_id": request_id.get() or ""}) as span:
            await self._serve(request, scope, send if span is None else _status_into(span, send))

    async def _serve(self, request: Request, scope: Scope, send: Send) -> None:
        receive = request.receive
        body = await _read_capped(request, self.settings.max_body_bytes)
        if body is None:
            await _error(413, "PAYLOAD_TOO_LARGE",
                         f"request body exceeds {self.settings.max_body_bytes} bytes")(
                scope, receive, send)
            return
        if _has_lone_surrogate(body):
            await _error(400, "INVALID_INPUT", "strings must be valid Unicode: the body "
                         "escapes a lone UTF-16 surrogate")(scope, receive, send)
            return
        try:
            principal = await self._principal(request)
        except GraphmemError as exc:
            status = 401 if isinstance(exc, Unauthenticated) else 503
            await _error(status, exc.code, exc.message,
                         retryable=exc.retryable)(scope, receive, send)
            return
        wait = self.limiter.allow(principal.key_id)
        if wait > 0:
            await _error(429, "RATE_LIMITED", "too many requests for this API key",
                         {"Retry-After": str(max(1, round(wait)))}, retryable=True)(
                scope, receive, send)
            return
        scope["graphmem.principal"] = principal
        try:
            with background.requests.request():  # the embedding backlog waits for quiet
                await self.view(scope, _replay(body), send)
        except _UnreadableBody as exc:  # raised while reading the body: nothing was sent yet
            reason = ("the body is not UTF-8" if str(exc) == "UnicodeDecodeError"
                      else "the body's JSON is nested too deeply")
            await _error(400, "INVALID_INPUT", reason)(scope, receive, send)

    async def _principal(self, request: Request) -> Principal:
        if not self.settings.auth_required:
            return ANONYMOUS_ADMIN
        db = request.app.state.runtime.db
        return await authenticate(db, request.headers.get("authorization"), self.keys)


async def _read_capped(request: Request, limit: int) -> bytes | None:
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        return None
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def _has_lone_surrogate(body: bytes) -> bool:
    """JSON may escape half a UTF-16 pair ("\\ud800"); such a string cannot be stored (Neo4j
    speaks UTF-8), so it is refused here. Only bodies with such escapes are decoded twice."""
    if b"\\ud" not in body.lower():
        return False
    try:
        decoded = json.loads(body)
    except ValueError:
        return False  # not JSON: the GraphQL view answers that
    return _any_surrogate(decoded)


def _any_surrogate(value: Any) -> bool:
    if isinstance(value, str):
        return any("\ud800" <= ch <= "\udfff" for ch in value)
    if isinstance(value, dict):
        return any(_any_surrogate(k) or _any_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_any_surrogate(v) for v in value)
    return False


def _status_into(span: Any, send: Send) -> Send:
    async def send_noting_status(message: Message) -> None:
        if message["type"] == "http.response.start":
            span.set_attribute("http.response.status_code", message["status"])
        await send(message)

    return send_noting_status


def _replay(body: bytes) -> Receive:
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return {"type": "http.disconnect"}

    return receive


def _error(status: int, code: str, message: str, headers: dict[str, str] | None = None,
           retryable: bool = False) -> Response:
    extensions: dict[str, object] = {"code": code, **({"retryable": True} if retryable else {})}
    payload = {"data": None, "errors": [{"message": message, "extensions": extensions}]}
    if status == 401:
        headers = {**(headers or {}), "WWW-Authenticate": "Bearer"}
    return Response(json.dumps(payload), status_code=status, media_type="application/json",
                    headers=headers)


def graphql_routes(settings: Settings, ide: ASGIApp | None = None) -> list[BaseRoute]:
    """``/graphql`` over HTTP and, for subscriptions, over a WebSocket: one schema."""
    endpoint = GraphQLEndpoint(settings, ide if settings.graphiql else None)
    return [Route("/graphql", endpoint, methods=["GET", "POST"]),
            WebSocketRoute("/graphql", endpoint.view)]
