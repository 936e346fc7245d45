"""What the sync and async clients share about HTTP: settings from the environment, the
request, reading an answer into data or a typed error, and when (and how long) to retry."""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import httpx

from graphmem_client.errors import GraphmemError, error_for

if TYPE_CHECKING:
    from graphmem_client._operations import Call

DEFAULT_URL = "http://127.0.0.1:8000/graphql"
BACKOFF_S = 0.5  # first retry waits up to this long, doubling per attempt
BACKOFF_CAP_S = 10.0
_STATUS_CODES = {401: "UNAUTHENTICATED", 403: "FORBIDDEN", 413: "PAYLOAD_TOO_LARGE",
                 429: "RATE_LIMITED", 503: "DATABASE_UNAVAILABLE"}


@dataclass(frozen=True)
class Settings:
    url: str
    namespace: str
    headers: dict[str, str]
    timeout: float
    retries: int

    @classmethod
    def read(cls, url: str | None, key: str | None, namespace: str | None, timeout: float,
             retries: int) -> Settings:
        """Arguments first, then GRAPHMEM_URL, GRAPHMEM_KEY, GRAPHMEM_NAMESPACE."""
        namespace = namespace or os.environ.get("GRAPHMEM_NAMESPACE")
        if not namespace:
            raise ValueError("no namespace: pass namespace= or set GRAPHMEM_NAMESPACE")
        key = key or os.environ.get("GRAPHMEM_KEY")
        headers = {"User-Agent": "graphmem-client/0.1"}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        return cls(endpoint(url or os.environ.get("GRAPHMEM_URL") or DEFAULT_URL), namespace,
                   headers, timeout, max(0, retries))

    def of_namespace(self, namespace: str) -> Settings:
        """The same URL, key and limits for another namespace."""
        if not namespace:
            raise ValueError("no namespace: pass one (e.g. acme/user-42)")
        return replace(self, namespace=namespace)

    def __repr__(self) -> str:  # the key stays out of logs and tracebacks
        return f"Settings(url={self.url!r}, namespace={self.namespace!r})"


def endpoint(url: str) -> str:
    """The GraphQL endpoint: a URL without a path (``http://127.0.0.1:8000``) means the
    service's ``/graphql``; any other path is kept (a proxy may serve it elsewhere)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"url must be an http(s) URL like {DEFAULT_URL}: got {url!r}")
    return url.rstrip("/") + "/graphql" if parts.path in ("", "/") else url


def body(call: Call) -> dict[str, Any]:
    return {"query": call.document, "operationName": call.operation,
            "variables": call.variables}


def data_of(response: httpx.Response) -> dict[str, Any]:
    """The answer's data, or the typed error of its first GraphQL error (or of its status)."""
    try:
        payload = response.json()
    except ValueError:
        payload = None
    if isinstance(payload, dict) and payload.get("errors"):
        first = payload["errors"][0]
        extensions = first.get("extensions") or {}
        code = str(extensions.get("code") or _STATUS_CODES.get(response.status_code, "INTERNAL"))
        retryable = bool(extensions.get("retryable")) or response.status_code in (429, 503)
        raise error_for(code, str(first.get("message", "")), extensions.get("field"),
                        retryable, extensions)
    if response.status_code != 200 or not isinstance(payload, dict) \
            or not isinstance(payload.get("data"), dict):
        code = _STATUS_CODES.get(response.status_code, "INTERNAL")
        message = f"HTTP {response.status_code} from {response.request.url}"
        if response.status_code in (200, 404, 405):  # an answer, but not graphmem's
            message += (": not a GraphQL endpoint; check url= or GRAPHMEM_URL (graphmem's is "
                        f"the service's /graphql, e.g. {DEFAULT_URL})")
        raise error_for(code, message, retryable=response.status_code in (429, 503))
    data: dict[str, Any] = payload["data"]
    return data


def unreachable(error: httpx.TransportError, repeatable: bool) -> GraphmemError:
    """A transport failure; retryable when the request cannot have reached the server, or
    when it may have but sending it again changes nothing (``repeatable``): a mutation that
    timed out may have been committed."""
    never_sent = isinstance(error, httpx.ConnectError | httpx.ConnectTimeout)
    return error_for("UNREACHABLE", f"{type(error).__name__}: {error}",
                     retryable=never_sent or repeatable)


def delay(error: GraphmemError, attempt: int, retries: int,
          response: httpx.Response | None) -> float | None:
    """Seconds to wait before attempt ``attempt + 1``, or None: give up and raise."""
    if not error.retryable or attempt >= retries:
        return None
    after = response.headers.get("Retry-After") if response is not None else None
    if after is not None and after.isdigit():
        return min(float(after), BACKOFF_CAP_S)
    return random.uniform(0, min(BACKOFF_CAP_S, BACKOFF_S * 2 ** attempt))  # full jitter
