"""Webhooks: a namespace's events POSTed to a URL, for systems that cannot hold a socket.

A delivery is made for each matching webhook by the transaction that emits the event (so
it exists exactly when the change committed), then a dispatcher claims due deliveries with
a lease (two processes never send one at once), POSTs the event signed with the webhook's
secret, and records the outcome: delivered on a 2xx, else tried again after a backoff that
doubles, and ``failed`` once its attempts are spent. The deliveries are the log.

An attempt has one deadline, ``webhook_timeout_s``, for all of it (resolving, connecting,
sending, the answer's status): a receiver that trickled its answer a byte at a time, each read
within a per-read timeout, had held every delivery of the process. A delivery's failure, even
one no HTTP client raises, is its own failed attempt and never its batch's: one malformed URL
had kept a batch from being recorded, so another namespace's event was POSTed every minute.

The body is the event (ids and kind, no content). The ``Graphmem-Signature`` header is
``t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" under the secret>``: a receiver
recomputes it and refuses old timestamps, so a captured request cannot be replayed later.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import secrets
import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import httpx

from graphmem.core.backoff import backoff
from graphmem.core.config import Settings
from graphmem.core.namespaces import Namespace
from graphmem.core.timeutil import maybe_datetime, parse_stored_datetime, to_native
from graphmem.db.database import Database, Row
from graphmem.events import outbox
from graphmem.events.outbox import EventKind
from graphmem.events.targets import check_url, pinned

log = logging.getLogger(__name__)
CLAIM_BATCH = 50
LEASE = timedelta(seconds=60)
ANSWER_BYTES = 65_536  # read of an answer's body (about: it comes in chunks); the status counts


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
    rows = await db.write("events/webhooks/add", ns=ns, id=f"wh_{uuid.uuid4().hex}", url=url,
                          kinds=[k.value for k in kinds or list(EventKind)], secret=secret,
                          now=to_native(datetime.now(UTC)))
    return Webhook.from_row(rows[0]["webhook"]), secret


async def remove(db: Database, ns: Namespace, webhook_id: str) -> bool:
    rows = await db.write("events/webhooks/remove", ns=ns, id=webhook_id)
    return bool(rows and rows[0]["removed"])


async def listed(db: Database, ns: Namespace) -> list[Webhook]:
    return [Webhook.from_row(row) for row in await db.read("events/webhooks/list", ns=ns)]


async def deliveries(db: Database, ns: Namespace, webhook_id: str, limit: int) -> list[Delivery]:
    rows = await db.read("events/webhooks/deliveries", ns=ns, id=webhook_id, limit=limit)
    return [Delivery.from_row(row) for row in rows]


def signature(secret: str, timestamp: int, body: bytes) -> str:
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"t={timestamp},v1={mac.hexdigest()}"


def body_of(row: Row) -> bytes:
    """What is POSTed: the event, as a subscription would tell it."""
    return json.dumps({"id": row["event_id"], "kind": EventKind(row["kind"]).name,
                       "namespace": row["ns"], "at": parse_stored_datetime(row["at"]).isoformat(),
                       "subjectId": row["subject_id"]}, separators=(",", ":")).encode()


def client(settings: Settings) -> httpx.AsyncClient:
    """The dispatcher's HTTP client: redirects are not followed (each hop would need checking)."""
    return httpx.AsyncClient(timeout=settings.webhook_timeout_s, follow_redirects=False)


async def deliver_due(db: Database, http: httpx.AsyncClient, settings: Settings,
                      now: datetime | None = None) -> list[Row]:
    """Claim the deliveries that are due (by ``now``, a test's future), send them, record each
    outcome; the outcomes."""
    now = now or datetime.now(UTC)
    if not (await db.read("events/webhooks/due", now=to_native(now)))[0]["due"]:
        return []
    claimed = await db.write("events/webhooks/claim", now=to_native(now), limit=CLAIM_BATCH,
                             lease_until=to_native(now + LEASE))
    outcomes = await asyncio.gather(*(attempt(http, row, settings) for row in claimed))
    if outcomes:
        await db.write("events/webhooks/record", outcomes=list(outcomes))
    return list(outcomes)


async def attempt(http: httpx.AsyncClient, row: Row, settings: Settings) -> Row:
    """One attempt at a claimed delivery, and its outcome. It never raises: whatever goes
    wrong is this delivery's failed attempt, never its batch's (recorded together)."""
    number = row["attempts"] + 1
    status: int | None = None
    error: str | None = None
    try:
        async with asyncio.timeout(settings.webhook_timeout_s):  # the whole attempt
            status = await _post(http, row, settings)
    except Exception as exc:  # each delivery's failure is its own
        error = type(exc).__name__  # never the URL or a body: logs and the log stay clean
    done = status is not None and 200 <= status < 300
    now = datetime.now(UTC)
    spent = number >= settings.webhook_max_attempts
    return {"id": row["id"], "attempts": number, "last_status": status, "last_error": error,
            "state": "delivered" if done else "failed" if spent else "pending",
            "delivered_at": to_native(now) if done else None,
            "next_at": None if done or spent else to_native(
                now + backoff(number, settings.webhook_backoff_s, settings.job_backoff_cap_s))}


async def _post(http: httpx.AsyncClient, row: Row, settings: Settings) -> int:
    """POST the delivery's event; the answer's status. About ``ANSWER_BYTES`` of its body are
    read at most: a short answer leaves the connection reusable, a long one is cut off (a
    600 MB answer, read whole, had taken the service from 289 to 1,430 MB)."""
    body = body_of(row)
    address = await check_url(row["url"], settings.webhook_allow_private)  # checked now
    url, host, tls = pinned(row["url"], address)
    async with http.stream("POST", url, content=body, extensions=tls, headers={
            **host, "Content-Type": "application/json",
            "Graphmem-Event": EventKind(row["kind"]).name, "Graphmem-Delivery": row["id"],
            "Graphmem-Signature": signature(row["secret"], int(time.time()), body)}) as answer:
        read = 0
        async for chunk in answer.aiter_raw():
            read += len(chunk)
            if read >= ANSWER_BYTES:
                break
        return answer.status_code


async def run_dispatcher(db: Database, settings: Settings) -> None:
    """Forever: send what is due. When nothing is, rest until the first of: an event this
    process commits (sent at once), a retry of its own coming due, ``webhook_poll_s`` (what
    other processes commit, and their retries, are seen then)."""
    retry: datetime | None = None  # the soonest retry this process scheduled
    async with client(settings) as http:
        with outbox.commits(db) as committed:
            while True:
                committed.clear()  # before the look: a commit during it ends the rest
                try:
                    if outcomes := await deliver_due(db, http, settings):
                        retry = _soonest(retry, *(o["next_at"] for o in outcomes))
                        continue
                except asyncio.CancelledError:
                    raise
                except Exception as exc:  # keep dispatching after a transient failure
                    log.warning("webhook dispatch failed (%s); retrying", type(exc).__name__)
                await outbox.rest(committed, _until(retry, settings.webhook_poll_s))
                if retry is not None and retry <= datetime.now(UTC):
                    retry = None  # due at the next look, which sends it (or another did)


def _soonest(*times: datetime | None) -> datetime | None:
    return min((t for t in times if t is not None), default=None)


def _until(retry: datetime | None, poll_s: float) -> float:
    """Seconds to rest: ``poll_s``, less when a retry comes due sooner."""
    if retry is None:
        return poll_s
    return min(poll_s, max(0.0, (retry - datetime.now(UTC)).total_seconds()))
