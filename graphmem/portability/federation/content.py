"""What a sync carries: the labels and links that may leave a device, what a namespace's
setting lets through, a device's name, and the framing of records as an export file."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from datetime import UTC, datetime
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from graphmem.core.errors import InvalidInput
from graphmem.core.namespaces import Namespace
from graphmem.portability.format import DERIVED, Digest, header


class Content(StrEnum):
    """What a namespace syncs (``GRAPHMEM_SYNC_CONTENT``, ``graphmem sync --content``)."""

    FACTS = "facts"
    FACTS_AND_SUMMARIES = "facts_and_summaries"
    NOTHING = "nothing"


# What a sync may carry, in the order a page lists them. Never an Episode, a Session or an
# Actor: the conversation stays on its device.
SYNCED = ("Entity", "Value", "Alias", "DeviceTurn", "Fact", "Summary", "Conflict",
          "PredicatePolicy")
# A device's links to its own turns, and the links to their references elsewhere.
TURN_LINKS = MappingProxyType({"EVIDENCED_BY": "EVIDENCED_BY_TURN",
                               "SUMMARIZES": "SUMMARIZES_TURN",
                               "RETRACTED_IN": "RETRACTED_IN_TURN"})
OWN_LINKS = MappingProxyType({turn: own for own, turn in TURN_LINKS.items()})
IGNORED = DERIVED | {"embed_error"}  # the holder's own bookkeeping: not compared, not sent
PAGE = 500  # nodes a pull page holds by default
MAX_PAGE = 2_000
_DEVICE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


def labels(content: Content) -> tuple[str, ...]:
    """The labels a namespace with this setting sends and takes."""
    match content:
        case Content.FACTS:
            return tuple(label for label in SYNCED if label != "Summary")
        case Content.FACTS_AND_SUMMARIES:
            return SYNCED
        case Content.NOTHING:
            return ()


def check_device(device: str) -> str:
    """A device's name: what a reference to its turns says they are held on."""
    if not _DEVICE.fullmatch(device):
        raise InvalidInput("device is 1-64 letters, digits, '.', '_' or '-', starting with a "
                           "letter or digit", field="device")
    return device


def check_page(first: int) -> None:
    if not 1 <= first <= MAX_PAGE:
        raise InvalidInput(f"first must be 1-{MAX_PAGE}", field="first")


def framed(ns: Namespace, records: Iterable[dict[str, Any]]) -> list[str]:
    """Records as the lines of an export file: header, records, end with counts and digest."""
    body = list(records)
    digest = Digest()
    for record in body:
        digest.add(record)
    nodes = sum(1 for record in body if "node" in record)
    end = {"end": {"nodes": nodes, "relationships": len(body) - nodes, "digest": digest.value}}
    return [json.dumps(r, ensure_ascii=False, separators=(",", ":"))
            for r in (header(ns, False, datetime.now(UTC)), *body, end)]
