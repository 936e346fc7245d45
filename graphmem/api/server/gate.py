"""One policy for every transport: what a request passes before any GraphQL runs, whether it
comes as an HTTP body, as an operation on a long-lived WebSocket, or as an export stream.

- its size (``max_body_bytes``) and valid Unicode (no lone UTF-16 surrogate: Neo4j stores
  UTF-8);
- its API key, looked up through one cache, and looked up again for *every* operation, so a
  revoked key stops working on an open socket as it does over HTTP (within ``auth_cache_s``);
- the key's rate (one token bucket per key, whatever the transport);
- how many sockets a key holds open at once;
- and before all that, that the service is ready (``NOT_READY``, with the reason, if not).

The gate lives as long as the app (made in ``create_app``), so every route shares its cache,
buckets and counts."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, Protocol

from graphmem.core.config import Settings
from graphmem.core.errors import (
    Forbidden,
    GraphmemError,
    InvalidInput,
    NotReady,
    PayloadTooLarge,
    RateLimited,
    Unauthenticated,
)
from graphmem.db.database import Database
from graphmem.security.auth import ANONYMOUS_ADMIN, KeyCache, Principal, authenticate
from graphmem.security.rate_limit import RateLimiter


class Unreadable(Exception):
    """JSON the parser cannot read although it may be valid (nested deeper than its stack,
    or bytes that are not UTF-8): the client's error, not the server's."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def decode_json(data: str | bytes) -> object:
    try:
        return json.loads(data)
    except RecursionError as exc:
        raise Unreadable("the JSON is nested too deeply") from exc
    except UnicodeDecodeError as exc:
        raise Unreadable("the body is not UTF-8") from exc


class Readiness(Protocol):
    """The runtime as the gate sees it (graphmem.app.Runtime)."""

    ready: bool
    problem: str | None


class Gate:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.runtime: Readiness | None = None  # set once the app's lifespan made it
        self.keys = KeyCache(settings.auth_cache_s)
        self.limiter = RateLimiter(settings.rate_limit_per_process)
        self._sockets: Counter[str] = Counter()  # key id -> open, authenticated sockets

    def check_size(self, text: str | bytes) -> None:
        """Refuse a request over ``max_body_bytes`` (a str is measured in UTF-8)."""
        limit = self.settings.max_body_bytes
        if len(text) > limit // 4 and len(text.encode() if isinstance(text, str) else text) > limit:
            raise PayloadTooLarge(f"the request exceeds {limit} bytes", limit=limit)

    @staticmethod
    def check_unicode(value: Any) -> None:
        """Refuse strings that escape half a UTF-16 pair ("\\ud800"): they cannot be stored."""
        if _any_surrogate(value):
            raise InvalidInput("strings must be valid Unicode: the request escapes a lone "
                               "UTF-16 surrogate")

    async def principal(self, db: Database, authorization: str | None) -> Principal:
        """Who the key is (``Unauthenticated`` when unknown or revoked); ``NotReady`` while
        the service is not ready: a store refused at start (an embedder its vector indexes
        were not built for) had taken writes and answered searches with INTERNAL."""
        if self.runtime is None or not self.runtime.ready:
            problem = self.runtime.problem if self.runtime is not None else None
            raise NotReady(f"graphmem is not ready: {problem or 'starting'}")
        if not self.settings.auth_required:
            return ANONYMOUS_ADMIN
        return await authenticate(db, authorization, self.keys)

    def charge(self, principal: Principal) -> None:
        """One request against the key's rate (``RateLimited`` past it)."""
        wait = self.limiter.allow(principal.key_id)
        if wait > 0:
            raise RateLimited("too many requests for this API key",
                              retry_after=max(1, round(wait)))

    async def admit(self, db: Database, authorization: str | None) -> Principal:
        """The key, checked now, and one request charged to it: every operation's entry."""
        principal = await self.principal(db, authorization)
        self.charge(principal)
        return principal

    def open_socket(self, principal: Principal) -> bool:
        """Count a socket against its key; False (and not counted) past the key's cap."""
        if self._sockets[principal.key_id] >= self.settings.max_sockets_per_key:
            return False
        self._sockets[principal.key_id] += 1
        return True

    def close_socket(self, principal: Principal) -> None:
        self._sockets[principal.key_id] -= 1
        if self._sockets[principal.key_id] <= 0:
            del self._sockets[principal.key_id]


# The HTTP status of each kind of refusal, most specific first; anything else is Neo4j
# being away (503).
_STATUS: tuple[tuple[type[GraphmemError], int], ...] = (
    (Unauthenticated, 401), (Forbidden, 403), (PayloadTooLarge, 413), (InvalidInput, 400),
    (RateLimited, 429), (NotReady, 503))


def http_refusal(exc: GraphmemError) -> tuple[int, dict[str, str] | None]:
    """The status and headers an HTTP endpoint answers a refused request with."""
    status = next((code for kind, code in _STATUS if isinstance(exc, kind)), 503)
    headers = {"Retry-After": str(exc.retry_after)} if isinstance(exc, RateLimited) else None
    return status, headers


def _any_surrogate(value: Any) -> bool:
    if isinstance(value, str):
        return any("\ud800" <= ch <= "\udfff" for ch in value)
    if isinstance(value, dict):
        return any(_any_surrogate(k) or _any_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_any_surrogate(v) for v in value)
    return False
