"""``/graphql`` over HTTP: the gate's checks (body size, valid Unicode, API key, rate) *before*
GraphQL runs, so an unauthenticated request never reaches the memory graph; then strawberry's
ASGI view. Over a WebSocket the same view runs, with the same gate checked for every
operation (websocket.py)."""

from __future__ import annotations

import json
from contextlib import suppress
from typing import Any

from cross_web import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from strawberry.asgi import GraphQL
from strawberry.http import GraphQLHTTPResponse
from strawberry.schema import BaseSchema
from strawberry.subscriptions import GRAPHQL_TRANSPORT_WS_PROTOCOL
from strawberry.types import ExecutionResult

from graphmem.api.server.context import Context, Subscriptions
from graphmem.api.server.gate import Gate, Unreadable, decode_json, http_refusal
from graphmem.api.server.websocket import SocketAdapter, SocketHandler
from graphmem.core.config import Settings
from graphmem.core.errors import GraphmemError, PayloadTooLarge
from graphmem.observability.logs import request_id
from graphmem.retrieval import background
from graphmem.security.auth import NOBODY, Principal


class GraphQLView(GraphQL[Context, None]):
    graphql_transport_ws_handler_class = SocketHandler
    websocket_adapter_class = SocketAdapter

    def __init__(self, schema: BaseSchema, settings: Settings, gate: Gate) -> None:
        super().__init__(schema, graphql_ide=None,
                         subscription_protocols=(GRAPHQL_TRANSPORT_WS_PROTOCOL,),
                         max_subscriptions_per_connection=settings.max_subscriptions_per_socket)
        self.settings = settings
        self.gate = gate
        self.subscriptions = Subscriptions()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Requests strawberry refuses before GraphQL runs (no query, a query that is not a
        string, a mutation by GET) were answered in plain text; they are typed JSON too."""
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        try:
            response = await self.run(Request(scope=scope, receive=receive))
        except HTTPException as exc:
            response = _error(exc.status_code, "GRAPHQL_VALIDATION", exc.reason)
        await response(scope, receive, send)

    def decode_json(self, data: str | bytes) -> object:
        """JSON nested deeper than the parser's stack (metadata 980 levels deep) or bytes that
        are not UTF-8 are the client's error, answered as a typed 400, not a plain 500."""
        return decode_json(data)

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

    async def process_result(self, request: Any, result: ExecutionResult) -> GraphQLHTTPResponse:
        """Errors raised before any extension runs (a syntax error, a document past the token
        limit, a lone surrogate in a string literal) came without a code; every error of an
        answer is typed, these as the request's own: GRAPHQL_VALIDATION."""
        answer = await super().process_result(request, result)
        for error in answer.get("errors") or []:
            if isinstance(error, dict):  # each is graphql-core's formatted error
                error.setdefault("extensions", {}).setdefault("code", "GRAPHQL_VALIDATION")
        return answer

    async def get_context(self, request: Any, response: Any) -> Context:
        runtime = request.app.state.runtime
        # Over HTTP the endpoint put the checked key in the scope; a socket's comes with its
        # `connection_init` (websocket.py). Absent: nobody, granted nothing.
        principal: Principal = request.scope.get("graphmem.principal", NOBODY)
        return Context(db=runtime.db, principal=principal, settings=self.settings,
                       embedder=runtime.embedder, fact_cache=runtime.fact_cache,
                       usage=runtime.usage,
                       worker=runtime.worker, subscriptions=self.subscriptions,
                       events=runtime.events)


class GraphQLEndpoint:
    """ASGI app for ``/graphql`` over HTTP: the gate's checks, then the GraphQL view. ``ide``
    answers a GET without a query: the GraphiQL page, served from local files (None: not
    served)."""

    def __init__(self, view: GraphQLView, ide: ASGIApp | None = None) -> None:
        self.view = view
        self.gate = view.gate
        self.ide = ide

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        if request.method == "GET" and "query" not in request.query_params:
            # The GraphiQL page itself holds no data; it asks with the key its user types.
            page = self.ide or _error(404, "NOT_FOUND", "GraphiQL is off (GRAPHMEM_GRAPHIQL)")
            await page(scope, receive, send)
            return
        tracing = request.app.state.runtime.db.tracing
        with tracing.server_span("graphql", request.headers,
                                 {"graphmem.request_id": request_id.get() or ""}) as span:
            await self._serve(request, scope, send if span is None else _status_into(span, send))

    async def _serve(self, request: Request, scope: Scope, send: Send) -> None:
        receive = request.receive
        try:
            body = await _read_capped(request, self.gate.settings.max_body_bytes)
            if b"\\ud" in body.lower():  # only bodies with such escapes are decoded twice
                with suppress(ValueError, Unreadable):  # not JSON: the view answers that
                    self.gate.check_unicode(decode_json(body))
            principal = await self.gate.admit(request.app.state.runtime.db,
                                              request.headers.get("authorization"))
        except GraphmemError as exc:
            await _refusal(exc)(scope, receive, send)
            return
        scope["graphmem.principal"] = principal
        requests = background.of(request.app.state.runtime.db).requests
        try:
            with requests.request():  # the app's embedding backlog waits for quiet
                await self.view(scope, _replay(body), send)
        except Unreadable as exc:  # raised while reading the body: nothing was sent yet
            await _error(400, "INVALID_INPUT", exc.reason)(scope, receive, send)


async def _read_capped(request: Request, limit: int) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise PayloadTooLarge(f"request body exceeds {limit} bytes")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise PayloadTooLarge(f"request body exceeds {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def _refusal(exc: GraphmemError) -> Response:
    """A request the gate refused, with the HTTP status its kind has."""
    status, headers = http_refusal(exc)
    return _error(status, exc.code, exc.message, headers, retryable=exc.retryable)


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


def graphql_routes(schema: BaseSchema, settings: Settings, gate: Gate,
                   ide: ASGIApp | None = None) -> list[BaseRoute]:
    """``/graphql`` over HTTP and over a WebSocket: one schema, one gate."""
    view = GraphQLView(schema, settings, gate)
    endpoint = GraphQLEndpoint(view, ide if settings.graphiql else None)
    return [Route("/graphql", endpoint, methods=["GET", "POST"]),
            WebSocketRoute("/graphql", view)]
