"""`graphmem sync` on a device: push what the setting lets leave (facts and their history,
conflicts, policies; summaries if asked), then pull what the other devices pushed, page by
page, each page in one transaction with the cursor after it (``federation``).

What leaves is read by the export (``exporting.export``) and filtered: no episode, session
or speaker; a link to one of this device's turns becomes a link to a reference to it
(``DeviceTurn``: its id, this device's name, when it was said, its content hash), and a
quote of it is dropped. A repeat push changes nothing on the shared side (it stamps only
what moved), and a repeat pull finds nothing after its cursor.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Protocol

import httpx

from graphmem.core.errors import GraphmemError
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database
from graphmem.portability import exporting
from graphmem.portability.federation import (
    PAGE,
    TURN_LINKS,
    Content,
    check_device,
    framed,
    labels,
    missing_turns,
    pulled_up_to,
    receive_page,
)

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
               peer: str, first: int = PAGE) -> Report:
    """Push, then pull until the shared side has nothing newer for this device."""
    check_device(device)
    report = Report()
    if content is Content.NOTHING:
        return report
    report.erased_there = await _erasure_followed(db, ns, remote, device)
    lines = await outgoing(db, ns, device, content)
    pushed = (await remote.call(PUSH, {"ns": ns, "device": device, "lines": lines}))["pushMemory"]
    report.pushed_records, report.changed_there = len(lines) - 2, pushed["changed"]
    report.sequence = pushed["sequence"]
    cursor = await pulled_up_to(db, ns, peer)
    while True:
        page = (await remote.call(PULL, {"ns": ns, "device": device, "after": cursor,
                                         "first": first}))["memoryChanges"]
        done = await receive_page(db, ns, page["lines"], content, peer, page["cursor"],
                                  [(e["kind"], e["id"]) for e in page["erased"]])
        for kind, n in done.erased.items():
            report.erased_here[kind] = report.erased_here.get(kind, 0) + n
        report.pages += 1
        report.pulled_nodes += done.nodes
        report.pulled_relationships += done.relationships
        cursor = page["cursor"]
        if not page["hasMore"]:
            return report


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


async def outgoing(db: Database, ns: Namespace, device: str, content: Content) -> list[str]:
    """What leaves the device for ``ns``, as the lines a push sends."""
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
    return framed(ns, [*nodes, *(turns[key] for key in used), *rels])


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
