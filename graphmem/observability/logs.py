"""Structured logs: one JSON object per line, with the request id, and never memory content.

What graphmem logs is codes, statement names, counts and timings. Libraries that would log
content are held at WARNING (the Neo4j driver logs queries with parameters at DEBUG), and the
access log is our own: method, path without query string, status, duration.
"""

from __future__ import annotations

import contextvars
import json
import logging
import re
import time
import uuid
from datetime import UTC, datetime

from starlette.types import ASGIApp, Message, Receive, Scope, Send

request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id",
                                                                         default=None)
_VALID_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
access = logging.getLogger("graphmem.access")


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {"ts": datetime.fromtimestamp(record.created, UTC).isoformat(),
                 "level": record.levelname.lower(), "logger": record.name,
                 "msg": record.getMessage(), "request_id": request_id.get()}
        entry.update(getattr(record, "fields", {}))
        if record.exc_info and record.levelno >= logging.ERROR:
            entry["exception"] = record.exc_info[0].__name__ if record.exc_info[0] else None
        return json.dumps(entry, default=str)


def configure(level: str = "INFO", as_json: bool = True) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter() if as_json else logging.Formatter(
        "%(asctime)s %(levelname)s %(name)s %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    quiet_libraries()


def quiet_libraries() -> None:
    """Libraries that log requests or queries with their content stay at WARNING."""
    for noisy in ("neo4j", "httpx", "httpx2", "openai", "uvicorn.access"):
        logging.getLogger(noisy).setLevel(logging.WARNING)


class RequestIds:
    """ASGI middleware: a request id per request (the client's ``X-Request-Id`` when it is a
    plain token, else a new one), in every log line and echoed in the response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = dict(scope.get("headers") or []).get(b"x-request-id", b"").decode("latin-1")
        rid = given if _VALID_ID.fullmatch(given) else uuid.uuid4().hex
        token = request_id.set(rid)
        began, status = time.perf_counter(), 500

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], (b"x-request-id", rid.encode())]
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            access.info("request", extra={"fields": {
                "request_id": rid, "method": scope.get("method"), "path": scope.get("path"),
                "status": status,
                "ms": round((time.perf_counter() - began) * 1000, 2)}})
            request_id.reset(token)
