"""Webhooks: a namespace's events POSTed to a URL, for systems that cannot hold a socket.

A delivery is made for each matching webhook by the transaction that emits the event (so
it exists exactly when the change committed), then a dispatcher claims due deliveries with
a lease (two processes never send one at once), POSTs the event signed with the webhook's
secret, and records the outcome: delivered on a 2xx, else tried again after a backoff that
doubles, and ``failed`` once its attempts are spent. The deliveries are the log.

The body is the event (ids and kind, no content). The ``Graphmem-Signature`` header is
``t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" under the secret>``: a receiver
recomputes it and refuses old timestamps, so a captured request cannot be replayed later.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import ipaddress
import json
import logging
import secrets
import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx

from graphmem.core.backoff import backoff
from graphmem.core.config import Settings
from graphmem.core.errors import InvalidInput
from graphmem.core.namespaces import Namespace
from graphmem.core.timeutil import maybe_datetime, parse_stored_datetime, to_native
from graphmem.db.database import Database, Row
from graphmem.events.outbox import EventKind

log = logging.getLogger(__name__)
CLAIM_BATCH = 50
LEASE = timedelta(seconds=60)
MAX_URL = 2_000


@dataclass(frozen=True)
class Webhook:
    id: str
    namespace: str
    url: str
    kinds: list[EventKind]
    created_at: datetime

    @classmethod
    def from_row(cls, row: Row) -> Webhook:
        return cls(id=row["id"], namespace=row["ns"], url=row["url"],
                   kinds=[EventKind(k) for k in row["kinds"]],
                   created_at=parse_stored_datetime(row["created_at"]))


@dataclass(frozen=True)
class Delivery:
    id: str
    event_id: str
    kind: EventKind
    state: str  # pending, delivered, failed
    attempts: int
    created_at: datetime
    next_at: datetime | None
    delivered_at: datetime | None
    last_status: int | None
    last_error: str | None

    @classmethod
    def from_row(cls, row: Row) -> Delivery:
        return cls(id=row["id"], event_id=row["event_id"], kind=EventKind(row["kind"]),
                   state=row["state"], attempts=row["attempts"],
                   created_at=parse_stored_datetime(row["created_at"]),
                   next_at=maybe_datetime(row.get("next_at")),
                   delivered_at=maybe_datetime(row.get("delivered_at")),
                   last_status=row.get("last_status"), last_error=row.get("last_error"))


async def add(db: Database, ns: Namespace, url: str, kinds: list[EventKind],
              settings: Settings) -> tuple[Webhook, str]:
    """A new webhook and its signing secret (shown this once)."""
    await check_url(url, settings.webhook_allow_private)
    secret = f"whsec_{secrets.token_urlsafe(32)}"
    rows = await db.write("webhooks/add", ns=ns, id=f"wh_{uuid.uuid4().hex}", url=url,
                          kinds=[k.value for k in kinds or list(EventKind)], secret=secret,
                          now=to_native(datetime.now(UTC)))
    return Webhook.from_row(rows[0]["webhook"]), secret


async def remove(db: Database, ns: Namespace, webhook_id: str) -> bool:
    rows = await db.write("webhooks/remove", ns=ns, id=webhook_id)
    return bool(rows and rows[0]["removed"])


async def listed(db: Database, ns: Namespace) -> list[Webhook]:
    return [Webhook.from_row(row) for row in await db.read("webhooks/list", ns=ns)]


async def deliveries(db: Database, ns: Namespace, webhook_id: str, limit: int) -> list[Delivery]:
    rows = await db.read("webhooks/deliveries", ns=ns, id=webhook_id, limit=limit)
    return [Delivery.from_row(row) for row in rows]


async def check_url(url: str, allow_private: bool) -> str:
    """http(s), a host, and (unless allowed) no loopback, private or link-local address: the
    service must not be made to call into the network it runs in. Returns the address to
    connect to: the one checked, so a name that resolves differently a moment later (DNS
    rebinding) is never followed."""
    parts = urlsplit(url)
    if len(url) > MAX_URL or parts.scheme not in ("http", "https") or not parts.hostname:
        raise InvalidInput(f"url must be an http(s) URL of at most {MAX_URL} characters",
                           field="url")
    try:
        found = await asyncio.get_running_loop().getaddrinfo(parts.hostname, parts.port or 443)
    except OSError:
        raise InvalidInput(f"url's host {parts.hostname!r} does not resolve", field="url") \
            from None
    addresses = [ipaddress.ip_address(address[0]) for *_, address in found]
    if not allow_private and any(ip.is_private or ip.is_loopback or ip.is_link_local
                                 or ip.is_reserved for ip in addresses):
        raise InvalidInput("url points into a private network (set "
                           "GRAPHMEM_WEBHOOK_ALLOW_PRIVATE to allow it)", field="url")
    return str(addresses[0])


def pinned(url: str, address: str) -> tuple[str, dict[str, str], dict[str, Any]]:
    """``url`` sent to ``address``: the URL with the address for its host, the Host header,
    and the TLS server name (so an https certificate is still checked against the host)."""
    parts = urlsplit(url)
    assert parts.hostname is not None
    port = f":{parts.port}" if parts.port else ""
    host = f"[{address}]" if ":" in address else address
    userinfo = parts.netloc.rpartition("@")[0]
    netloc = f"{userinfo}@{host}{port}" if userinfo else f"{host}{port}"
    named = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return (urlunsplit(parts._replace(netloc=netloc)), {"Host": f"{named}{port}"},
            {"sni_hostname": parts.hostname})


def signature(secret: str, timestamp: int, body: bytes) -> str:
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"t={timestamp},v1={mac.hexdigest()}"


def body_of(row: Row) -> bytes:
    """What is POSTed: the event, as a subscription would tell it."""
    return json.dumps({"id": row["event_id"], "kind": EventKind(row["kind"]).name,
                       "namespace": row["ns"], "at": parse_stored_datetime(row["at"]).isoformat(),
                       "subjectId": row["subject_id"]}, separators=(",", ":")).encode()


async def deliver_due(db: Database, http: httpx.AsyncClient, settings: Settings) -> int:
    """Claim the deliveries that are due, send them, record each outcome; how many were."""
    now = datetime.now(UTC)
    if not (await db.read("webhooks/due", now=to_native(now)))[0]["due"]:
        return 0
    claimed = await db.write("webhooks/claim", now=to_native(now), limit=CLAIM_BATCH,
                             lease_until=to_native(now + LEASE))
    outcomes = await asyncio.gather(*(_send(http, row, settings) for row in claimed))
    if outcomes:
        await db.write("webhooks/record", outcomes=list(outcomes))
    return len(outcomes)


async def _send(http: httpx.AsyncClient, row: Row, settings: Settings) -> Row:
    body = body_of(row)
    attempt = row["attempts"] + 1
    status: int | None = None
    error: str | None = None
    try:
        address = await check_url(row["url"], settings.webhook_allow_private)  # checked now
        url, host, tls = pinned(row["url"], address)
        answer = await http.post(url, content=body, extensions=tls, headers={
            **host, "Content-Type": "application/json",
            "Graphmem-Event": EventKind(row["kind"]).name, "Graphmem-Delivery": row["id"],
            "Graphmem-Signature": signature(row["secret"], int(time.time()), body)})
        status = answer.status_code
    except (httpx.HTTPError, InvalidInput) as exc:
        error = type(exc).__name__  # never the URL or a body: logs and the log stay clean
    done = status is not None and 200 <= status < 300
    now = datetime.now(UTC)
    spent = attempt >= settings.webhook_max_attempts
    return {"id": row["id"], "attempts": attempt, "last_status": status, "last_error": error,
            "state": "delivered" if done else "failed" if spent else "pending",
            "delivered_at": to_native(now) if done else None,
            "next_at": None if done or spent else to_native(
                now + backoff(attempt, settings.webhook_backoff_s, settings.job_backoff_cap_s))}


async def run_dispatcher(db: Database, settings: Settings) -> None:
    """Forever: send what is due, rest briefly when nothing is."""
    async with httpx.AsyncClient(timeout=settings.webhook_timeout_s,
                                 follow_redirects=False) as http:
        while True:
            try:
                if not await deliver_due(db, http, settings):
                    await asyncio.sleep(settings.webhook_poll_s)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # keep dispatching after a transient failure
                log.warning("webhook dispatch failed (%s); retrying", type(exc).__name__)
                await asyncio.sleep(settings.webhook_poll_s)
