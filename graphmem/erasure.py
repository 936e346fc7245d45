"""Erasure that proves itself: a namespace's memory deleted in bounded batches, then the
graph and every fulltext index re-queried to show nothing remains, and a content-free
receipt left for audit.

Vectors live on the nodes themselves, so deleting a node removes its embedding from the
vector indexes; the node count proves it.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime

from graphmem.db import Database
from graphmem.errors import InvalidInput
from graphmem.fact_cache import FactCache
from graphmem.namespaces import Namespace

BATCH = 2_000


@dataclass(frozen=True)
class Receipt:
    id: str
    scope: str
    requested_at: datetime
    completed_at: datetime
    counts: dict[str, int]
    remaining_nodes: int
    remaining_searchable: int

    @property
    def verified(self) -> bool:
        return self.remaining_nodes == 0 and self.remaining_searchable == 0


async def erase_namespace(db: Database, ns: Namespace, confirm: str, actor: str | None,
                          cache: FactCache | None = None) -> Receipt:
    """Delete everything the namespace holds. ``confirm`` must repeat the namespace."""
    if confirm != ns:
        raise InvalidInput("confirm must repeat the namespace being erased", field="confirm")
    requested = datetime.now(UTC)
    counts: dict[str, int] = {}
    while True:  # bounded transactions, so a large namespace never needs one huge one
        done = (await db.write("erasure/namespace_batch", ns=ns, batch=BATCH))[0]
        for kind, n in done.items():
            counts[kind] = counts.get(kind, 0) + n
        if not any(done.values()):
            break
    if cache is not None:
        cache.forget(ns)
    left = (await db.read("erasure/namespace_remaining", ns=ns, lucene=f'ns:"{ns}"'))[0]
    receipt = Receipt(f"erasure_{uuid.uuid4().hex}", "namespace", requested, datetime.now(UTC),
                      counts, left["nodes"], left["searchable"])
    await db.write("erasure/receipt", id=receipt.id, scope=receipt.scope,
                   ns_digest=hashlib.sha256(ns.encode()).hexdigest(),
                   requested_at=receipt.requested_at, completed_at=receipt.completed_at,
                   counts=json.dumps(counts, sort_keys=True), verified=receipt.verified,
                   actor=actor)
    return receipt
