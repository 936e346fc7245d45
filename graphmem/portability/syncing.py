"""`graphmem sync` on a device: push what the setting lets leave (facts and their history,
conflicts, policies; summaries if asked), then pull what the other devices pushed, page by
page, each page in one transaction with the cursor after it (``federation``).

What leaves is read by the export (``exporting.export``) and filtered: no episode, session
or speaker; a link to one of this device's turns becomes a link to a reference to it
(``DeviceTurn``: its id, this device's name, when it was said, its content hash), and a
quote of it is dropped. A repeat push changes nothing on the shared side (it stamps only
what moved), and a repeat pull finds nothing after its cursor. One sync of a namespace runs
at a time (``federation.claim``); `graphmem serve` may run them in its background
(:func:`run_in_background`).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import uuid
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Protocol

import httpx

from graphmem.core.config import Settings
from graphmem.core.errors import ConfigError, GraphmemError
from graphmem.core.namespaces import Namespace, parse_namespace
from graphmem.db.database import Database
from graphmem.portability import exporting
from graphmem.portability.federation import (
    PAGE,
    TURN_LINKS,
    Content,
    check_device,
    claim,
    framed,
    labels,
    missing_turns,
    pulled_up_to,
    receive_page,
    release,
)
from graphmem.portability.federation.cursors import acknowledge, pushed

log = logging.getLogger(__name__)

PUSH = """mutation Push($ns: String!, $device: String!, $lines: [String!]!) {
  pushMemory(namespace: $ns, device: $device, lines: $lines) {
    sequence nodes relationships changed ended disputed forgotten
  }
}"""
PULL = """query Pull($ns: String!, $device: String!, $after: String, $first: Int!) {
  memoryChanges(namespace: $ns, device: $device, after: $after, first: $first) {
    lines cursor hasMore erased { kind id }
  }
}"""
HELD = """query Held($ns: String!, $device: String!, $after: String) {
  heldTurns(namespace: $ns, device: $device, after: $after) { ids hasMore }
}"""
ERASE = """mutation Erase($ns: String!, $device: String!, $ids: [ID!]!) {
  eraseHeldTurns(namespace: $ns, device: $device, ids: $ids) {
    id verified counts { kind count }
  }
}"""


class Remote(Protocol):
    """The shared service's GraphQL API, called with the namespace's key."""

    async def call(self, document: str, variables: dict[str, Any]) -> dict[str, Any]: ...


class RemoteError(GraphmemError):
    """The shared service refused a call: its error code, and its message (which names
    fields and lines, never memory content)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"the shared service answered {code}: {message}")
        self.code = code


class HttpRemote:
    """The shared service over HTTP, with the namespace's key as a bearer token."""

    def __init__(self, url: str, key: str, timeout_s: float = 120.0) -> None:
        self._client = httpx.AsyncClient(timeout=timeout_s,
                                         headers={"Authorization": f"Bearer {key}"})
        self._url = url

    async def __aenter__(self) -> HttpRemote:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self._client.aclose()

    async def call(self, document: str, variables: dict[str, Any]) -> dict[str, Any]:
        answer = await self._client.post(self._url, json={"query": document,
                                                          "variables": variables})
        try:
            body = answer.json()
        except ValueError:  # not GraphQL's answer (a proxy's error page)
            raise RemoteError(f"HTTP_{answer.status_code}", "the answer was not JSON") from None
        if body.get("errors"):
            error = body["errors"][0]
            raise RemoteError(error.get("extensions", {}).get("code", "ERROR"),
                              str(error.get("message", ""))[:500])
        answer.raise_for_status()
        return dict(body["data"])


@dataclass
class Report:
    pushed_records: int = 0
    changed_there: int = 0  # nodes the push changed on the shared side
    sequence: int = 0  # the shared side's sequence number after the push
    pulled_nodes: int = 0
    pulled_relationships: int = 0
    pages: int = 0
    erased_there: dict[str, Any] | None = None  # the shared side's receipt, if it erased
    erased_here: dict[str, int] = field(default_factory=dict)  # what its tombstones took here


def peer_of(url: str) -> str:
    """The name a device keeps its cursor under for one shared service (no URL is stored)."""
    return hashlib.sha256(url.encode()).hexdigest()[:24]


async def sync(db: Database, ns: Namespace, remote: Remote, device: str, content: Content,
               peer: str, first: int = PAGE, full: bool = False) -> Report:
    """Push what moved since the last push the shared side took (``full``: everything),
    then pull until the shared side has nothing newer for this device; while it runs no
    other sync of ``ns`` does (ConcurrentChange if one is running)."""
    check_device(device)
    report = Report()
    if content is Content.NOTHING:
        return report
    holder = uuid.uuid4().hex
    await claim(db, ns, peer, holder)
    try:
        return await _sync(db, ns, remote, device, content, peer, first, report, holder,
                           full)
    finally:
        await release(db, ns, peer, holder)


async def _sync(db: Database, ns: Namespace, remote: Remote, device: str, content: Content,
                peer: str, first: int, report: Report, holder: str, full: bool) -> Report:
    report.erased_there = await _erasure_followed(db, ns, remote, device)
    going = await outgoing(db, ns, device, content, None if full else await pushed(db, ns, peer))
    # Sent even when it holds nothing: the shared side stamps what changed on it since.
    answer = (await remote.call(PUSH, {"ns": ns, "device": device, "lines": going.lines}))
    took = answer["pushMemory"]
    await acknowledge(db, ns, peer, going.digests)
    pulled: set[str] = set()
    report.pushed_records, report.changed_there = going.records, took["changed"]
    report.sequence = took["sequence"]
    cursor = await pulled_up_to(db, ns, peer)
    while True:
        page = (await remote.call(PULL, {"ns": ns, "device": device, "after": cursor,
                                         "first": first}))["memoryChanges"]
        await claim(db, ns, peer, holder)  # renewed: a long pull keeps its namespace
        done = await receive_page(db, ns, page["lines"], content, peer, page["cursor"],
                                  [(e["kind"], e["id"]) for e in page["erased"]])
        pulled |= _names(page["lines"])
        for kind, n in done.erased.items():
            report.erased_here[kind] = report.erased_here.get(kind, 0) + n
        report.pages += 1
        report.pulled_nodes += done.nodes
        report.pulled_relationships += done.relationships
        cursor = page["cursor"]
        if not page["hasMore"]:
            break
    if pulled:  # what the pull wrote is the shared side's already: not sent back
        now = (await outgoing(db, ns, device, content)).digests
        await acknowledge(db, ns, peer, {**going.digests, **{
            name: digest for name, digest in now.items() if name in pulled}})
    return report


def _names(lines: list[str]) -> set[str]:
    """The nodes a pulled page holds, named as a push's digests name them."""
    found = set()
    for line in lines[1:-1]:
        record = json.loads(line)
        if "node" in record:
            found.add(_name((record["node"], record["key"])))
    return found


@dataclass(frozen=True)
class Background:
    """What `graphmem serve` syncs in its background, read from the settings."""

    url: str
    key: str
    device: str
    content: Content
    namespaces: tuple[Namespace, ...]
    every_s: float
    page: int

    @classmethod
    def of(cls, settings: Settings) -> Background | None:
        """None when background sync is off (no interval, or no namespace); ConfigError
        naming what is missing when it is half set."""
        if not settings.sync_interval_s or not settings.sync_namespaces:
            return None
        url, key, device = settings.sync_url, settings.sync_key, settings.sync_device
        if not url or key is None or not device:
            missing = [name for name, value in (("GRAPHMEM_SYNC_URL", url),
                                                ("GRAPHMEM_SYNC_KEY", key),
                                                ("GRAPHMEM_SYNC_DEVICE", device)) if not value]
            raise ConfigError(f"background sync (GRAPHMEM_SYNC_INTERVAL_S) needs "
                              f"{', '.join(missing)}")
        return cls(url.rstrip("/"), key.get_secret_value(), check_device(device),
                   Content(settings.sync_content),
                   tuple(parse_namespace(n) for n in settings.sync_namespaces),
                   settings.sync_interval_s, settings.sync_page)


async def run_in_background(db: Database, plan: Background) -> None:
    """Forever: sync each namespace in turn, then wait the interval. A sync that fails is
    logged (the kind of error and its code, never content) and tried again the next round;
    so is one that finds another sync of its namespace running (`graphmem sync`)."""
    peer = peer_of(plan.url)
    while True:
        for ns in plan.namespaces:
            try:
                async with HttpRemote(f"{plan.url}/graphql", plan.key) as remote:
                    # A batch job beside the requests: the administrative bound, as
                    # `graphmem sync` has.
                    done = await sync(db.admin(), ns, remote, plan.device, plan.content,
                                      peer, plan.page)
                log.info("background sync of %s: %d changed there, %d node(s) pulled", ns,
                         done.changed_there, done.pulled_nodes)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the next round tries again
                log.warning("background sync of %s failed (%s %s); trying again in %gs", ns,
                            type(exc).__name__, getattr(exc, "code", ""), plan.every_s)
        await asyncio.sleep(plan.every_s)


async def _erasure_followed(db: Database, ns: Namespace, remote: Remote,
                            device: str) -> dict[str, Any] | None:
    """Turns this device erased since its last sync: the shared side holds references to
    them, and erases those and what they alone supported (its receipt comes back)."""
    gone: list[str] = []
    after: str | None = None
    while True:
        held = (await remote.call(HELD, {"ns": ns, "device": device, "after": after}))
        page = held["heldTurns"]
        gone += await missing_turns(db, ns, page["ids"])
        if not page["hasMore"] or not page["ids"]:
            break
        after = page["ids"][-1]
    if not gone:
        return None
    answer = await remote.call(ERASE, {"ns": ns, "device": device, "ids": gone})
    return dict(answer["eraseHeldTurns"])


@dataclass(frozen=True)
class Outgoing:
    """A push: its lines, how many records they hold, and every node's digest now (what the
    next push compares against once the shared side has taken this one)."""

    lines: list[str]
    records: int
    digests: dict[str, str]


async def outgoing(db: Database, ns: Namespace, device: str, content: Content,
                   sent: dict[str, str] | None = None) -> Outgoing:
    """What leaves the device for ``ns``, as the lines a push sends: with ``sent`` (the
    digests of the last push the shared side took), only the nodes whose record or outgoing
    relationships moved since, with those relationships and the nodes they end at (the
    shared side names its own entities and values by them); None: everything."""
    allowed = set(labels(content)) - {"DeviceTurn"}  # references: made below, or kept as held
    turns: dict[str, dict[str, Any]] = {}
    nodes: list[dict[str, Any]] = []
    rels: list[dict[str, Any]] = []
    async for record in exporting.export(db, ns):
        if "node" in record:
            if record["node"] == "Episode":
                turns[record["key"]] = _reference(record, device)
            elif record["node"] in allowed or (record["node"] == "DeviceTurn" and allowed):
                nodes.append(record)
        elif "rel" in record and (kept := _leaving(record, allowed)) is not None:
            rels.append(kept)
    used = sorted({r["to"][1] for r in rels if r["to"][0] == "DeviceTurn"} & set(turns))
    nodes += [turns[key] for key in used]
    leaving: dict[str, list[dict[str, Any]]] = {}
    for rel in rels:
        leaving.setdefault(_name(rel["from"]), []).append(rel)
    digests = {_name((n["node"], n["key"])): _digest(n, leaving.get(_name((n["node"], n["key"])),
                                                                    []))
               for n in nodes}
    moved = {name for name, digest in digests.items()
             if sent is None or sent.get(name) != digest}
    going = [rel for rel in rels if _name(rel["from"]) in moved]
    needed = moved | {_name(rel["to"]) for rel in going}
    body = [n for n in nodes if _name((n["node"], n["key"])) in needed] + going
    return Outgoing(framed(ns, body), len(body), digests)


def _name(node: Any) -> str:
    """A node's name in a push's digests: label and key."""
    label, key = node
    return f"{label}/{key}"


def _digest(record: dict[str, Any], rels: list[dict[str, Any]]) -> str:
    text = json.dumps([record, sorted(json.dumps(r, sort_keys=True) for r in rels)],
                      sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def _reference(episode: dict[str, Any], device: str) -> dict[str, Any]:
    """An episode as what may leave: which turn, on which device, said when, its hash."""
    props = episode["props"]
    return {"node": "DeviceTurn", "key": episode["key"],
            "props": {"device": device, "said_at": props.get("occurred_at"),
                      **({"content_hash": props["content_hash"]}
                         if "content_hash" in props else {})}}


def _leaving(rel: dict[str, Any], allowed: set[str]) -> dict[str, Any] | None:
    """A relationship as it leaves, or None when it stays (its ends do not both leave)."""
    start, end = rel["from"][0], rel["to"][0]
    if start not in allowed:
        return None
    if end == "Episode" and rel["rel"] in TURN_LINKS:
        props = {k: v for k, v in rel["props"].items() if k != "quote"}  # a turn's words
        return {"rel": TURN_LINKS[rel["rel"]], "from": rel["from"],
                "to": ["DeviceTurn", rel["to"][1]], "props": props}
    return rel if end in allowed or end == "DeviceTurn" else None
