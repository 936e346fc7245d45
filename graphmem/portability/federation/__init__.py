"""Federated memory: what a shared service keeps of the devices' pushes, what a pull hands
back, and how a device takes it in (`graphmem sync`, README "Federated memory").

A sync carries records of the export format (``format``), framed like an export file
(header, records, end with counts and digest), so a push is checked as an import is
(``validation.FileCheck``) and written through the import's own statements. What differs
from an import, and why:

- **No turn is in it.** Labels are those of :data:`SYNCED`; a fact's evidence and a
  summary's coverage point at ``(:DeviceTurn {id, device, said_at, content_hash})``, a
  reference to a turn its device holds (the id is the device's episode id), joined by
  :data:`TURN_LINKS`. On the device that holds the turn, the reference is the episode again.
- **Entities and values are matched by name**, not id: two devices that each learned of
  "Dana" made two ids for one person (ids stay stable for everything else, so a fact has
  one id on every side).
- **An ending is never undone**: a fact one side stopped believing (superseded, retracted,
  forgotten) or a conflict it settled stays so, whatever an older copy says.
- **The shared service resolves**: facts learned apart are resolved there (copies of one
  statement joined, ONE predicates by policy in world-time order: ``facts.store.
  reconcile_in``), once, and devices take its result. It stamps what each push changed
  (and what changed on it since the last push) with a sequence number, so a pull pages
  through what changed after its cursor; a push that changes nothing stamps nothing.

One concept per module: ``content`` (what a sync carries), ``batches`` (reading and merging
a sync's records), ``stamps`` (the shared side's sequence), ``receiving`` (a push, a pulled
page), ``changes`` (a pull's pages), ``cursors`` (where a pull stands), ``claims`` (one sync
of a namespace at a time), ``erasure`` (a device's erasure followed).
"""

from graphmem.portability.federation.changes import Page, changes
from graphmem.portability.federation.claims import claim, release
from graphmem.portability.federation.content import (
    MAX_PAGE,
    PAGE,
    SYNCED,
    TURN_LINKS,
    Content,
    check_device,
    framed,
    labels,
)
from graphmem.portability.federation.cursors import pulled_up_to
from graphmem.portability.federation.erasure import erase_held, held_turns, missing_turns
from graphmem.portability.federation.receiving import Received, receive_page, receive_push

__all__ = ["MAX_PAGE", "PAGE", "SYNCED", "TURN_LINKS", "Content", "Page", "Received",
           "changes", "check_device", "claim", "erase_held", "framed", "held_turns", "labels",
           "missing_turns", "pulled_up_to", "receive_page", "receive_push", "release"]
