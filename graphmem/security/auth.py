"""API keys and the principal a request acts as.

A key is ``gm_<id>_<secret>`` with 256 bits of randomness; only its SHA-256 is stored (a slow
password hash buys nothing for random tokens and would cost every request). Keys are granted
namespaces (exact, or a prefix like ``acme/*``) or admin. CRUD goes through neomodel; the
per-request lookup is one indexed Cypher read.
"""

from __future__ import annotations

import hashlib
import secrets
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from neomodel import ArrayProperty as _ArrayProperty
from neomodel import (
    AsyncStructuredNode,
    BooleanProperty,
    DateTimeProperty,
    StringProperty,
    adb,
)

from graphmem.core.errors import Forbidden, InvalidInput, NotFound, Unauthenticated
from graphmem.core.namespaces import Namespace, grant_matches, parse_namespace
from graphmem.db.database import Database

_PREFIX = "gm_"
MAX_NAME = 100  # a label, e.g. the application using the key


class ApiKey(AsyncStructuredNode):
    """A stored key: never the secret itself, only its hash."""

    key_id = StringProperty(unique_index=True, required=True)
    name = StringProperty(required=True)
    hash = StringProperty(unique_index=True, required=True)
    grants = _ArrayProperty(StringProperty(), default=list)
    admin = BooleanProperty(default=False)
    created_at = DateTimeProperty(default=lambda: datetime.now(UTC))
    revoked_at = DateTimeProperty()


@dataclass(frozen=True)
class Principal:
    key_id: str
    name: str
    grants: tuple[str, ...]
    admin: bool

    def authorize(self, namespace: Namespace) -> Namespace:
        if self.admin or any(grant_matches(g, namespace) for g in self.grants):
            return namespace
        raise Forbidden(f"this API key is not granted namespace {namespace!r}")


# Granted nothing: the context of requests that run no operation.
NOBODY = Principal(key_id="nobody", name="nobody", grants=(), admin=False)
# Used when GRAPHMEM_AUTH_REQUIRED=false (local development only).
ANONYMOUS_ADMIN = Principal(key_id="anonymous", name="anonymous", grants=("*",), admin=True)


def hash_secret(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class KeyCache:
    """Recently verified keys, so an agent's every turn does not cost a lookup in Neo4j.
    A revoked key stops working within ``ttl_s`` (0: no cache, revocation is immediate).
    Bounded; only hashes are kept, never tokens. ``clock``: seconds, monotonic (a test lets
    time pass through it)."""

    def __init__(self, ttl_s: float, max_keys: int = 10_000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.ttl_s, self.max_keys, self.clock = ttl_s, max_keys, clock
        self._known: dict[str, tuple[Principal, float]] = {}

    def get(self, digest: str) -> Principal | None:
        found = self._known.get(digest)
        if found is None or found[1] <= self.clock():
            return None
        return found[0]

    def put(self, digest: str, principal: Principal) -> None:
        if self.ttl_s <= 0:
            return
        if len(self._known) >= self.max_keys:
            self._known.clear()  # rare (that many distinct keys within a TTL): start afresh
        self._known[digest] = (principal, self.clock() + self.ttl_s)


async def authenticate(db: Database, authorization: str | None,
                       cache: KeyCache | None = None) -> Principal:
    """Resolve an ``Authorization: Bearer gm_...`` header to its principal."""
    if not authorization or not authorization.lower().startswith("bearer "):
        raise Unauthenticated("send an API key as 'Authorization: Bearer gm_...'")
    token = authorization[7:].strip()
    if not token.startswith(_PREFIX):
        raise Unauthenticated("unknown or revoked API key")
    digest = hash_secret(token)
    if cache is not None and (known := cache.get(digest)) is not None:
        return known
    rows = await db.read("security/api_key_lookup", hash=digest)
    if not rows:
        raise Unauthenticated("unknown or revoked API key")
    row = rows[0]
    principal = Principal(row["id"], row["name"], tuple(row["grants"] or ()), bool(row["admin"]))
    if cache is not None:
        cache.put(digest, principal)
    return principal


async def create_key(db: Database, name: str, grants: list[str], admin: bool) -> str:
    """Store a new key and return its token; the token is shown once and never again."""
    _check_name(name)
    for grant in grants:
        if grant != "*":
            parse_namespace(grant.removesuffix("/*"))
    if not grants and not admin:
        raise InvalidInput("a key needs at least one namespace grant or --admin")
    key_id = secrets.token_hex(6)
    token = f"{_PREFIX}{key_id}_{secrets.token_urlsafe(32)}"
    await adb.set_connection(driver=db.driver)
    key = ApiKey(key_id=key_id, name=name, hash=hash_secret(token), grants=grants, admin=admin)
    await key.save()
    return token


def _check_name(name: str) -> None:
    """A key's name is printed by `graphmem keys list` and recorded as the actor of all it
    does (audit, jobs): a newline or a terminal escape in it forged lines there."""
    if not name.strip() or len(name) > MAX_NAME or any(
            unicodedata.category(c) in ("Cc", "Cf") for c in name):  # Cf: invisible
        raise InvalidInput(f"a key's name is 1-{MAX_NAME} characters without control or "
                           "invisible ones", field="name")


async def list_keys(db: Database) -> list[ApiKey]:
    await adb.set_connection(driver=db.driver)
    keys: list[ApiKey] = await ApiKey.nodes.order_by("created_at").all()
    return keys


async def revoke_key(db: Database, key_id: str) -> None:
    await adb.set_connection(driver=db.driver)
    key = await ApiKey.nodes.get_or_none(key_id=key_id)
    if key is None:
        raise NotFound(f"no API key {key_id!r}")
    key.revoked_at = datetime.now(UTC)
    await key.save()
